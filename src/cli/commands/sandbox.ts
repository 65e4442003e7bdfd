/**
 * `yoke sandbox check`: what of the shell sandbox works on this machine, for this folder, as the
 * user running it. It starts the sandbox with this folder's settings (switched on, if they leave
 * it off) and proves each confinement with a real command rather than reading switches: a write
 * outside the project, a Unix socket, the network, and a process left behind.
 */

import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../../config/load-settings';
import { homeDir } from '../../config/paths';
import { describeConfinement, SandboxManager } from '../../sandbox/manager';
import { resolveSandboxConfig } from '../../sandbox/settings';
import { runCommand } from '../../tools/builtin/bash/run-command';
import { sessionProtectedPaths } from '../session-permissions';

type CheckContext = { cwd: string; env: Record<string, string | undefined>; print: (line: string) => void };

/** One proof: the command, and how its output shows the sandbox held. */
type Probe = { name: string; command: string; held: (output: string, exitCode: number | null) => boolean };

function probes(outsideFile: string): Probe[] {
  return [
    {
      name: "a command runs and writes to the session's temp folder",
      command: 'echo sandboxed > "$TMPDIR/probe" && cat "$TMPDIR/probe"',
      held: (output, code) => code === 0 && output.trim() === 'sandboxed',
    },
    {
      name: `a write outside the writable paths (${outsideFile}) is refused`,
      command: `echo x > ${outsideFile}`,
      held: (_output, code) => code !== 0 && !existsSync(outsideFile),
    },
    {
      name: 'a Unix socket cannot be created (seccomp)',
      command:
        'python3 -c "import socket; socket.socket(socket.AF_UNIX)" 2>&1 || socat -u OPEN:/dev/null UNIX-CONNECT:/nonexistent 2>&1',
      held: (output) => /Operation not permitted/.test(output),
    },
    {
      name: 'the network is unreachable (no allowed hosts) or only through the proxy',
      command: 'exec 3<>/dev/tcp/1.1.1.1/80 && echo CONNECTED',
      held: (output) => !output.includes('CONNECTED'),
    },
  ];
}

export async function runSandboxCheck(context: CheckContext): Promise<number> {
  const { cwd, env, print } = context;
  const loaded = await loadSettings({ cwd, env });
  const sources = loaded.sources.map(({ source, path, settings }) => ({
    source,
    label: path ?? source,
    ...(settings.sandbox ? { sandbox: settings.sandbox } : {}),
  }));
  const { config, ignored } = resolveSandboxConfig(sources);
  print(
    `settings: the sandbox is ${config.enabled ? 'on' : 'off'} for this folder${config.enabled ? '' : ' (checked as if on)'}`,
  );
  for (const line of ignored) print(`settings: ${line}`);
  const home = homeDir(env);
  const manager = new SandboxManager({
    config: { ...config, enabled: true },
    projectRoot: cwd,
    additionalDirs: [],
    home,
    rules: [],
    protectedPaths: (await sessionProtectedPaths({ settingsSources: loaded.sources, cwd, env })).listed(),
  });
  try {
    const state = await manager.start();
    if (state.kind !== 'active') {
      print(`unavailable: ${state.kind === 'unavailable' ? state.reason : 'off'}`);
      print(
        config.failIfUnavailable
          ? 'sandbox.failIfUnavailable is set: Yoke will refuse to run here'
          : 'Yoke falls back to the permission prompts for every Bash command',
      );
      return 1;
    }
    print(
      `bubblewrap: works as ${process.getuid?.() === 0 ? 'root' : 'this user'} (user, pid, network, mount namespaces)`,
    );
    print(`socat: ${state.socat ? 'installed' : 'missing — sandbox.network.allowedDomains cannot be used'}`);
    print(`policy: ${describeConfinement(state.policy)}`);
    let failed = 0;
    const outsideFile = join(home, `.yoke-sandbox-check-${randomUUID().slice(0, 8)}`);
    for (const probe of probes(outsideFile)) {
      const run = await runCommand({
        command: probe.command,
        cwd,
        env,
        timeoutMs: 10_000,
        signal: new AbortController().signal,
        outputBudget: 4_000,
        spillPath: join(tmpdir(), `yoke-sandbox-check-${randomUUID()}.txt`),
        sandbox: manager,
      });
      const held = probe.held(run.output.text, run.exitCode);
      if (!held) failed++;
      print(`${held ? 'ok' : 'FAILED'}: ${probe.name}`);
      if (!held) print(`  output: ${run.output.text.trim().split('\n').slice(0, 3).join(' | ') || '(none)'}`);
      rmSync(outsideFile, { force: true });
    }
    return failed === 0 ? 0 : 1;
  } finally {
    await manager.dispose();
  }
}
