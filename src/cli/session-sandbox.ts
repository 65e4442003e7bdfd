/**
 * The session's shell sandbox, as the composition root sets it up: its configuration from the
 * settings sources and `--sandbox`/`--no-sandbox`, and — once the permission rules and protected
 * files are known — whether it can start, said once: active (nothing to say), unavailable with the
 * likely cause (commands then go through the permission prompts), or refused with
 * `failIfUnavailable`.
 */
import { realpathSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import type { SettingsSource } from '../config/settings-merge';
import type { PermissionRule } from '../lib/permission-vocabulary';
import type { ProtectedPaths } from '../permissions/protected-paths';
import type { KnownCopies } from '../permissions/worktree-copies';
import { SandboxManager } from '../sandbox/manager';
import { resolveSandboxConfig } from '../sandbox/settings';
import type { ConfineServer } from '../services/lsp/supervisor';

export type SessionSandbox = { manager: SandboxManager; warnings: string[] };

export function createSessionSandbox(input: {
  settingsSources: readonly SettingsSource[];
  flag: boolean | undefined;
  projectRoot: string;
  home: string;
  /** Read when the sandbox starts: the permission context is built after the services. */
  additionalDirs: () => readonly string[];
  rules: () => readonly PermissionRule[];
  protectedPaths: ProtectedPaths;
  copies: KnownCopies;
}): SessionSandbox {
  const { config, ignored } = resolveSandboxConfig(
    input.settingsSources.map(({ source, path, settings }) => ({
      source,
      label: path ?? (source === 'policySettings' ? '--managed-settings' : '--settings'),
      ...(settings.sandbox ? { sandbox: settings.sandbox } : {}),
    })),
    input.flag,
  );
  const manager = new SandboxManager({
    config,
    projectRoot: input.projectRoot,
    home: input.home,
    get additionalDirs() {
      return input.additionalDirs();
    },
    get rules() {
      return input.rules();
    },
    protectedPaths: input.protectedPaths.listed(),
    copies: input.copies,
  });
  return { manager, warnings: ignored };
}

/** Starts the sandbox; the one line to say about it, or throws when it is required and cannot run. */
export async function sandboxStartNotice(manager: SandboxManager): Promise<string | undefined> {
  const state = await manager.start();
  if (state.kind !== 'unavailable') return undefined;
  if (manager.config.failIfUnavailable)
    throw new Error(
      `the sandbox is required (sandbox.failIfUnavailable) but cannot start: ${state.reason}; Yoke will not run without it`,
    );
  return `sandbox: Bash commands are NOT sandboxed — the sandbox cannot start: ${state.reason}. Commands go through the permission prompts instead.`;
}

/**
 * Language servers run inside the sandbox while it is active, as Bash commands do: a server reads
 * the project's configuration and may load its code. Started later than the sandbox, so the
 * state is read at each server start.
 */
export function confineLanguageServers(manager: SandboxManager): ConfineServer {
  return (command, args, cwd) => {
    if (manager.state.kind !== 'active') return undefined;
    const wrapped = manager.wrap({
      shell: command,
      shellArgs: args,
      cwd,
      writableFiles: [],
      readable: [serverInstallation(command)],
    });
    return {
      file: wrapped.file,
      args: wrapped.args,
      ...(wrapped.seccomp ? { seccomp: wrapped.seccomp } : {}),
      finish: () => {
        wrapped.finish('');
      },
    };
  };
}

/**
 * Where a server's files live, to show it read-only inside the sandbox even under its private
 * /tmp: the outermost `node_modules` of a package install (the server and the TypeScript it
 * runs), else the folder of the binary itself.
 */
function serverInstallation(command: string): string {
  let real: string;
  try {
    real = realpathSync(command);
  } catch {
    return dirname(command);
  }
  const at = real.indexOf(`${sep}node_modules${sep}`);
  return at >= 0 ? real.slice(0, at + `${sep}node_modules`.length) : dirname(real);
}
