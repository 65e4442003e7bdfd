/**
 * One session's sandbox: whether it runs, its policy, its temp folder, its filtering proxy and the
 * glob-mask cache. The Bash tool asks it to wrap each command; the permission decision asks it
 * whether a call will run inside. Session-scoped (SessionServices owns it), never a module global.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { PermissionRule } from '../lib/permission-vocabulary';
import { isWithin, type ResolvedPattern } from '../permissions/path-rules';
import type { ShellSandboxJudge } from '../permissions/types';
import { copiesOfProject, type KnownCopies, patternOnCopy } from '../permissions/worktree-copies';
import { probeSandbox, type SandboxAvailability } from './availability';
import { bwrapPlan, type Placeholder, SECCOMP_FD } from './bwrap-args';
import { DenyMasks } from './deny-masks';
import { GitConfigReader } from './git-protection';
import { proxyEnvironment, relayedCommand } from './network-relay';
import { ownWorktree, type ProjectCopy } from './own-worktree';
import { buildPolicy, type PolicyPath, type ReadOnlyPath, type SandboxPolicy } from './policy';
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
  /** The session's known copies of the project (a WorktreeCreate hook's folders). */
  copies?: KnownCopies;
  /** Replaces the bubblewrap probe (tests of the unavailable path). */
  probe?: () => Promise<SandboxAvailability>;
  /**
   * How long the placeholders stay after the last sandboxed command ended, so a run of commands
   * makes them once: a folder made and removed costs ~4.5 ms on a busy disk, which times the ~5 of
   * a typical project was most of the sandbox's added latency. 0 removes them at once.
   */
  placeholderIdleMs?: number;
};

const PLACEHOLDER_IDLE_MS = 30_000;

/** What spawnShell runs instead of the shell, and what to do when it has ended. */
export type SandboxedSpawn = {
  file: string;
  args: string[];
  /** Written to fd 3 for bwrap's `--seccomp`. */
  seccomp?: Buffer;
  /** Called once with the command's output when it ended; returns the violation lines. */
  finish(output: string): string[];
};

export class SandboxManager {
  private stateValue: SandboxState | undefined;
  private starting: Promise<SandboxState> | undefined;
  private readonly masks = new DenyMasks();
  private proxy: FilteringProxy | undefined;
  private controlDir: string | undefined;
  private running = 0;
  private readonly placeholders: Placeholder[] = [];
  private readonly gitConfig = new GitConfigReader();
  /** null: this architecture has no filter table (the probe then reports the sandbox unavailable). */
  private filterBytes: Buffer | null | undefined;
  private removalTimer: NodeJS.Timeout | undefined;
  private sessionSwitch: boolean | undefined;

  constructor(private readonly options: SandboxManagerOptions) {}

  get config(): SandboxConfig {
    return this.options.config;
  }

  /** The state once `start` has settled; `off` before, and while `/sandbox off` holds. */
  get state(): SandboxState {
    if (this.sessionSwitch === false) return { kind: 'off' };
    return this.stateValue ?? { kind: 'off' };
  }

  /** `/sandbox on|off` for this session, when given; the settings decide otherwise. */
  get switchedForSession(): boolean | undefined {
    return this.sessionSwitch;
  }

  /**
   * `/sandbox on|off`: runs the rest of the session's commands inside or outside. Off is refused,
   * with the reason, when managed policy requires the sandbox or the settings forbid commands
   * outside it; on starts it, and says why when it cannot.
   */
  async switchTo(on: boolean): Promise<{ ok: true; state: SandboxState } | { ok: false; why: string }> {
    const { config } = this.options;
    if (!on) {
      if (config.requiredByPolicy)
        return { ok: false, why: 'managed policy settings require the sandbox (sandbox.enabled)' };
      if (!config.allowUnsandboxedCommands)
        return {
          ok: false,
          why: 'sandbox.allowUnsandboxedCommands is false: commands may not run outside the sandbox',
        };
      this.sessionSwitch = false;
      return { ok: true, state: this.state };
    }
    this.sessionSwitch = true;
    if (this.stateValue?.kind === 'off') {
      this.starting = undefined;
      this.stateValue = undefined;
    }
    return { ok: true, state: await this.start() };
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
    if (!(this.sessionSwitch ?? config.enabled)) return { kind: 'off' };
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
    mkdirSync(join(this.controlDir, 'empty'));
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

  /**
   * A path in the session's temp folder, which is writable inside: files a command leaves for
   * Yoke (the shell's final directory) go there, so they need no mount of their own.
   */
  scratchPath(name: string): string {
    const state = this.state;
    if (state.kind !== 'active') throw new Error('The sandbox is not active.');
    return join(state.policy.tempDir, name);
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
    if (state.kind !== 'active' || !this.controlDir) throw new Error('The sandbox is not active.');
    const { policy } = state;
    const copies = copiesOfProject(this.options.projectRoot, this.options.copies);
    const masks = this.masks.resolve([...policy.hidden, ...hiddenInCopies(policy, copies)]);
    const proxySocket = policy.network.kind === 'proxy' ? policy.network.socketPath : undefined;
    // With allowed sockets the filter would make them useless; with the relay it goes on the
    // nested bwrap instead.
    const filter = policy.unixSockets.length === 0 ? this.filter() : undefined;
    const own = ownWorktree(policy, copies, params.cwd);
    const extraReadOnly = [
      ...policy.repositories.flatMap((root) => this.gitConfig.derived(root)),
      ...readOnlyInCopies(policy, copies),
      ...(own?.readOnly ?? []),
    ];
    clearTimeout(this.removalTimer);
    const plan = bwrapPlan(policy, masks, {
      cwd: params.cwd,
      extraWritableFiles: params.writableFiles,
      ...(params.readable ? { extraReadable: params.readable } : {}),
      extraReadOnly,
      ...(own ? { writableIslands: own.islands } : {}),
      readsWorktreeConfig: (gitDir) => this.gitConfig.facts(gitDir)?.worktreeConfig === true,
      emptyDir: join(this.controlDir, 'empty'),
      env: { TMPDIR: policy.tempDir, ...(proxySocket ? proxyEnvironment() : {}) },
      asRoot: process.getuid?.() === 0,
      seccomp: filter !== undefined && !proxySocket,
    });
    for (const file of params.writableFiles)
      if (!policy.writable.some((root) => isWithin(file, root.path))) writeFileSync(file, '', { flag: 'a' });
    this.makePlaceholders(plan.placeholders);
    if (proxySocket) plan.args.push('--ro-bind', proxySocket, proxySocket);
    const command = [params.shell, ...params.shellArgs];
    const args = proxySocket
      ? [...plan.args, '--', ...relayedCommand(proxySocket, command, filter ? SECCOMP_FD : undefined)]
      : [...plan.args, '--', ...command];
    const deniedBefore = this.proxy?.denials.length ?? 0;
    this.running++;
    let finished = false;
    const protectedPaths = [...policy.readOnly, ...extraReadOnly];
    const spawn: SandboxedSpawn = {
      file: 'bwrap',
      args,
      finish: (output) => {
        if (finished) return [];
        finished = true;
        this.running--;
        if (this.running === 0) this.scheduleRemoval();
        return explainViolations(output, {
          cwd: params.cwd,
          policy,
          protectedPaths,
          denials: this.proxy?.denials.slice(deniedBefore) ?? [],
        });
      },
    };
    if (filter) spawn.seccomp = filter;
    return spawn;
  }

  /** The seccomp program, built once per session. */
  private filter(): Buffer | undefined {
    this.filterBytes ??= unixSocketFilter() ?? null;
    return this.filterBytes ?? undefined;
  }

  /** Writes the file placeholders; a folder placeholder is made by bwrap as its mount point. */
  private makePlaceholders(placeholders: readonly Placeholder[]): void {
    for (const placeholder of placeholders) {
      if (placeholder.kind === 'file') {
        try {
          writeFileSync(placeholder.path, placeholder.content, { flag: 'wx' });
        } catch (error) {
          // Created meanwhile: it is bound read-only as it is, and not ours to remove.
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw error;
        }
      }
      if (!this.placeholders.some((known) => known.path === placeholder.path))
        this.placeholders.push(placeholder);
    }
  }

  private scheduleRemoval(): void {
    const idleMs = this.options.placeholderIdleMs ?? PLACEHOLDER_IDLE_MS;
    if (idleMs <= 0) {
      this.removePlaceholders();
      return;
    }
    clearTimeout(this.removalTimer);
    this.removalTimer = setTimeout(() => {
      if (this.running === 0) this.removePlaceholders();
    }, idleMs);
    this.removalTimer.unref();
  }

  /**
   * Removes the placeholders — only when no sandboxed command runs: removing a mount point
   * detaches the mount in a running sandbox. A folder is removed only while empty and a file only
   * with the content Yoke gave it, so nothing someone put there outside is lost.
   */
  private removePlaceholders(): void {
    for (const placeholder of this.placeholders.splice(0)) {
      try {
        if (placeholder.kind === 'dir') rmdirSync(placeholder.path);
        else if (readFileSync(placeholder.path, 'utf8') === placeholder.content) unlinkSync(placeholder.path);
      } catch {
        // Already gone, or no longer ours (not empty, other content).
      }
    }
  }

  async dispose(): Promise<void> {
    await this.proxy?.close();
    clearTimeout(this.removalTimer);
    if (this.running === 0) this.removePlaceholders();
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

/**
 * The masked patterns mapped onto each copy of the project that exists now (an agent's linked
 * worktree, a hook's copy), as the permission layer's twins map its rules (worktree-copies.ts):
 * a secret the rules deny in the project is masked in its copies too. Looked at per command,
 * since worktrees come and go during a session.
 */
function hiddenInCopies(policy: SandboxPolicy, copies: readonly ProjectCopy[]): ResolvedPattern[] {
  return copies.flatMap(({ original, copy }) =>
    policy.hidden.flatMap((pattern) => patternOnCopy(pattern, original, copy)),
  );
}

/**
 * The files Edit deny rules name, at their places in each copy, read-only where the copy is
 * writable (no placeholder is made there: a missing copy of the file is not planted).
 */
function readOnlyInCopies(policy: SandboxPolicy, copies: readonly ProjectCopy[]): ReadOnlyPath[] {
  return copies.flatMap(({ original, copy }) =>
    policy.editDenied
      .filter((entry) => isWithin(entry.path, original) && !isWithin(entry.path, copy))
      .map((entry) => ({
        path: join(copy, relative(original, entry.path)),
        why: `${entry.why}, in its copy ${copy}`,
        whenMissing: 'nothing' as const,
      }))
      .filter((entry) => policy.writable.some((root) => isWithin(entry.path, root.path))),
  );
}
