/**
 * One session's sandbox: whether it runs, its policy, its temp folder, its filtering proxy and the
 * glob-mask cache. The Bash tool asks it to wrap each command; the permission decision asks it
 * whether a call will run inside. Session-scoped (SessionServices owns it), never a module global.
 */
import { lstatSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionRule } from '../lib/permission-vocabulary';
import type { ShellSandboxJudge } from '../permissions/types';
import { probeSandbox, type SandboxAvailability } from './availability';
import { bwrapPlan } from './bwrap-args';
import { DenyMasks } from './deny-masks';
import { buildPolicy, type PolicyPath, type SandboxPolicy } from './policy';
import { FilteringProxy } from './proxy';
import { unixSocketFilter } from './seccomp';
import type { SandboxConfig } from './settings';
import { explainViolations } from './violations';

export type SandboxState =
  | { kind: 'off' }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'active'; policy: SandboxPolicy; socat: boolean };

/** Whether one Bash call runs inside, and if not, why (for the permission decision's reason). */
export type RunDecision = { sandboxed: true } | { sandboxed: false; why: string };

export type SandboxManagerOptions = {
  config: SandboxConfig;
  projectRoot: string;
  additionalDirs: readonly string[];
  home: string;
  rules: readonly PermissionRule[];
  protectedPaths: readonly PolicyPath[];
  /** Replaces the bubblewrap probe (tests of the unavailable path). */
  probe?: () => Promise<SandboxAvailability>;
};

/** What spawnShell runs instead of the shell, and what to do when it has ended. */
export type SandboxedSpawn = {
  file: string;
  args: string[];
  /** Written to fd 3 for bwrap's `--seccomp`. */
  seccomp?: Buffer;
  /** Called once with the command's output when it ended; returns the violation lines. */
  finish(output: string): string[];
};

/** Ports the relay listens on inside the sandbox's own network namespace. */
const HTTP_PROXY_PORT = 3128;
const SOCKS_PROXY_PORT = 1080;

/**
 * Runs inside the sandbox before the command: two relays from loopback ports to the proxy's Unix
 * socket ($1), a wait until both listen (read from the namespace's own /proc/net/tcp), then the
 * command under a nested bwrap that only adds the seccomp filter — the relays themselves need
 * Unix sockets, the command must not have them.
 */
const RELAY_SCRIPT = [
  `socat TCP-LISTEN:${HTTP_PROXY_PORT},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:"$1" 2>/dev/null &`,
  `socat TCP-LISTEN:${SOCKS_PROXY_PORT},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:"$1" 2>/dev/null &`,
  `until grep -q ':${HTTP_PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A' /proc/net/tcp && grep -q ':${SOCKS_PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A' /proc/net/tcp; do :; done`,
  'shift',
  'exec "$@"',
].join('\n');

export class SandboxManager {
  private stateValue: SandboxState | undefined;
  private starting: Promise<SandboxState> | undefined;
  private readonly masks = new DenyMasks();
  private proxy: FilteringProxy | undefined;
  private controlDir: string | undefined;
  private running = 0;
  private readonly mountPoints = new Set<string>();

  constructor(private readonly options: SandboxManagerOptions) {}

  get config(): SandboxConfig {
    return this.options.config;
  }

  /** The state once `start` has settled; `off` before. */
  get state(): SandboxState {
    return this.stateValue ?? { kind: 'off' };
  }

  /** Probes bubblewrap, builds the policy, starts the proxy when hosts are allowed. Idempotent. */
  start(): Promise<SandboxState> {
    this.starting ??= this.startOnce().then((state) => {
      this.stateValue = state;
      return state;
    });
    return this.starting;
  }

  private async startOnce(): Promise<SandboxState> {
    const { config } = this.options;
    if (!config.enabled) return { kind: 'off' };
    const availability = await (this.options.probe ?? probeSandbox)();
    if (!availability.available) return { kind: 'unavailable', reason: availability.reason };
    if (config.allowedDomains.length > 0 && !availability.socat)
      return {
        kind: 'unavailable',
        reason:
          'sandbox.network.allowedDomains needs socat to bridge the proxy into the sandbox, and it is not installed (Debian/Ubuntu: apt-get install socat)',
      };
    this.controlDir = mkdtempSync(join(tmpdir(), 'yoke-sandbox-'));
    const tempDir = join(this.controlDir, 'tmp');
    mkdirSync(tempDir);
    let network: SandboxPolicy['network'] = { kind: 'none' };
    if (config.allowedDomains.length > 0) {
      const socketPath = join(this.controlDir, 'proxy.sock');
      this.proxy = new FilteringProxy({
        allowedDomains: config.allowedDomains,
        deniedDomains: config.deniedDomains,
      });
      await this.proxy.listen(socketPath);
      network = { kind: 'proxy', socketPath };
    }
    const policy = buildPolicy({ ...this.options, tempDir, network });
    return { kind: 'active', policy, socat: availability.socat };
  }

  /** Whether this call runs inside; `start` must have settled. */
  decide(input: { command: string; dangerouslyDisableSandbox?: boolean }): RunDecision {
    const state = this.state;
    if (state.kind === 'off') return { sandboxed: false, why: 'the sandbox is off' };
    if (state.kind === 'unavailable')
      return { sandboxed: false, why: `the sandbox is unavailable: ${state.reason}` };
    if (input.dangerouslyDisableSandbox) {
      return this.options.config.allowUnsandboxedCommands
        ? { sandboxed: false, why: 'the call asked to run outside the sandbox (dangerouslyDisableSandbox)' }
        : { sandboxed: true };
    }
    const excluded = this.options.config.excludedCommands.find((pattern) =>
      commandMatches(input.command, pattern),
    );
    if (excluded) return { sandboxed: false, why: `sandbox.excludedCommands has ${excluded}` };
    return { sandboxed: true };
  }

  /** The bwrap command line for one shell run; `start` must have made the sandbox active. */
  wrap(params: {
    shell: string;
    shellArgs: readonly string[];
    cwd: string;
    writableFiles: readonly string[];
    /** Folders to show read-only although a private tmpfs covers them (see BwrapPlanOptions). */
    readable?: readonly string[];
  }): SandboxedSpawn {
    const state = this.state;
    if (state.kind !== 'active') throw new Error('The sandbox is not active.');
    const { policy } = state;
    const masks = this.masks.resolve(policy.hidden);
    for (const file of params.writableFiles) writeFileSync(file, '', { flag: 'a' });
    const env: Record<string, string> = { TMPDIR: policy.tempDir };
    const proxied = policy.network.kind === 'proxy';
    if (proxied) {
      const http = `http://127.0.0.1:${HTTP_PROXY_PORT}`;
      const socks = `socks5h://127.0.0.1:${SOCKS_PROXY_PORT}`;
      Object.assign(env, {
        HTTP_PROXY: http,
        HTTPS_PROXY: http,
        http_proxy: http,
        https_proxy: http,
        ALL_PROXY: socks,
        all_proxy: socks,
        NO_PROXY: '',
        no_proxy: '',
      });
    }
    const plan = bwrapPlan(policy, masks, {
      cwd: params.cwd,
      extraWritableFiles: params.writableFiles,
      ...(params.readable ? { extraReadable: params.readable } : {}),
      env,
      asRoot: process.getuid?.() === 0,
      // With allowed sockets the filter would make them useless; with the relay it goes on the
      // nested bwrap instead.
      seccomp: policy.unixSockets.length === 0 && !proxied,
    });
    if (policy.network.kind === 'proxy') {
      plan.args.push('--ro-bind', policy.network.socketPath, policy.network.socketPath);
    }
    for (const point of plan.createdMountPoints) this.mountPoints.add(point);
    const command = [params.shell, ...params.shellArgs];
    const args = proxied
      ? [
          ...plan.args,
          '--',
          '/bin/sh',
          '-c',
          RELAY_SCRIPT,
          'yoke-relay',
          (policy.network as { socketPath: string }).socketPath,
          'bwrap',
          '--dev-bind',
          '/',
          '/',
          '--die-with-parent',
          ...(policy.unixSockets.length === 0 ? ['--seccomp', '3'] : []),
          '--',
          ...command,
        ]
      : [...plan.args, '--', ...command];
    const deniedBefore = this.proxy?.denials.length ?? 0;
    this.running++;
    let finished = false;
    const wantsFilter = policy.unixSockets.length === 0;
    const spawn: SandboxedSpawn = {
      file: 'bwrap',
      args,
      finish: (output) => {
        if (finished) return [];
        finished = true;
        this.running--;
        if (this.running === 0) this.removeMountPoints();
        return explainViolations(output, {
          cwd: params.cwd,
          policy,
          denials: this.proxy?.denials.slice(deniedBefore) ?? [],
        });
      },
    };
    const filter = wantsFilter ? unixSocketFilter() : undefined;
    if (filter) spawn.seccomp = filter;
    return spawn;
  }

  /**
   * The empty files bwrap left as mount points for protected paths that did not exist. Only when
   * no sandboxed command runs: removing a mount point detaches the mount in a running sandbox.
   */
  private removeMountPoints(): void {
    for (const path of this.mountPoints) {
      try {
        const stat = lstatSync(path);
        if (stat.isFile() && stat.size === 0) unlinkSync(path);
      } catch {
        // Already gone.
      }
      this.mountPoints.delete(path);
    }
  }

  async dispose(): Promise<void> {
    await this.proxy?.close();
    if (this.running === 0) this.removeMountPoints();
    if (this.controlDir) rmSync(this.controlDir, { recursive: true, force: true });
  }
}

/** `docker`, `docker:*` and `docker *` all name commands that start with the word `docker`. */
export function commandMatches(command: string, pattern: string): boolean {
  const prefix = pattern.replace(/(:\*| \*)$/, '').trim();
  const text = command.trim();
  return prefix !== '' && (text === prefix || text.startsWith(`${prefix} `));
}

/** The permission decision's view of the sandbox (permissions/types.ts ShellSandboxJudge). */
export function sandboxJudge(manager: SandboxManager): ShellSandboxJudge {
  return {
    autoAllow: manager.config.autoAllowBashIfSandboxed,
    async decide(input) {
      const state = await manager.start();
      const verdict = manager.decide(input);
      if (!verdict.sandboxed || state.kind !== 'active')
        return verdict.sandboxed ? { sandboxed: false, why: 'the sandbox is not active' } : verdict;
      return { sandboxed: true, confinement: describeConfinement(state.policy) };
    },
    async honoursDisable() {
      const state = await manager.start();
      return state.kind === 'active' && manager.config.allowUnsandboxedCommands;
    },
  };
}

/** One line: what a sandboxed command can reach, for permission reasons and `yoke sandbox check`. */
export function describeConfinement(policy: SandboxPolicy): string {
  const network =
    policy.network.kind === 'none' ? 'no network' : 'network only to the allowed hosts, through the proxy';
  return `writes only to ${policy.writable.map((root) => root.path).join(', ')} (protected files read-only), ${network}`;
}
