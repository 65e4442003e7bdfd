/**
 * The session's sandbox configuration, merged from the settings sources and the flags.
 *
 * Who may loosen it: user settings, `--settings`, the `--sandbox`/`--no-sandbox` flags and
 * managed policy (policy last, so a managed `enabled: true` survives `--no-sandbox`). Project and
 * local settings live in the folder the model edits and a repository may ship them, so they can
 * only tighten: switch it on, require it, forbid `dangerouslyDisableSandbox`, add deny lists. A
 * loosening key there is ignored and named once, like any other setting without effect.
 */
import type { SandboxSettings } from '../config/sandbox-settings';
import type { RuleSource } from '../lib/permission-vocabulary';

/** A filesystem path from the settings, with the source that named it (for messages). */
export type SettingsPath = { path: string; source: RuleSource };

export type SandboxConfig = {
  enabled: boolean;
  autoAllowBashIfSandboxed: boolean;
  excludedCommands: readonly string[];
  allowUnsandboxedCommands: boolean;
  failIfUnavailable: boolean;
  /** Managed policy switches it on: neither a flag nor `/sandbox off` turns it off. */
  requiredByPolicy: boolean;
  allowedDomains: readonly string[];
  deniedDomains: readonly string[];
  allowUnixSockets: readonly string[];
  allowLocalBinding: boolean;
  allowWrite: readonly SettingsPath[];
  denyWrite: readonly SettingsPath[];
  denyRead: readonly SettingsPath[];
  allowRead: readonly SettingsPath[];
};

export type SandboxSettingsSource = { source: RuleSource; label: string; sandbox?: SandboxSettings };

export type ResolvedSandboxConfig = {
  config: SandboxConfig;
  /** One line per loosening key a project or local file set, which has no effect. */
  ignored: string[];
};

const UNTRUSTED: ReadonlySet<RuleSource> = new Set(['projectSettings', 'localSettings']);

export const defaultSandboxConfig = (): SandboxConfig => ({
  enabled: false,
  autoAllowBashIfSandboxed: false,
  excludedCommands: [],
  allowUnsandboxedCommands: true,
  failIfUnavailable: false,
  requiredByPolicy: false,
  allowedDomains: [],
  deniedDomains: [],
  allowUnixSockets: [],
  allowLocalBinding: false,
  allowWrite: [],
  denyWrite: [],
  denyRead: [],
  allowRead: [],
});

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };

/**
 * `sources` lowest precedence first (as loadSettings returns them); `flag` is `--sandbox` (true)
 * or `--no-sandbox` (false). Policy sources are applied after the flag.
 */
export function resolveSandboxConfig(
  sources: readonly SandboxSettingsSource[],
  flag?: boolean,
): ResolvedSandboxConfig {
  const config = defaultSandboxConfig() as Mutable<SandboxConfig>;
  const ignored: string[] = [];
  const apply = ({ source, label, sandbox }: SandboxSettingsSource) => {
    if (!sandbox) return;
    const untrusted = UNTRUSTED.has(source);
    const loosening = (key: string) => {
      ignored.push(
        `settings ${label}: sandbox.${key} is ignored: project settings can only tighten the sandbox (set it in your user settings)`,
      );
    };
    const paths = (list: readonly string[] | undefined) => (list ?? []).map((path) => ({ path, source }));

    // Tightening values apply from every source.
    if (sandbox.enabled === true) config.enabled = true;
    if (sandbox.enabled === true && source === 'policySettings') config.requiredByPolicy = true;
    if (sandbox.failIfUnavailable === true) config.failIfUnavailable = true;
    if (sandbox.allowUnsandboxedCommands === false) config.allowUnsandboxedCommands = false;
    config.denyWrite.push(...paths(sandbox.filesystem?.denyWrite));
    config.denyRead.push(...paths(sandbox.filesystem?.denyRead));
    config.deniedDomains.push(...(sandbox.network?.deniedDomains ?? []));

    const loosen: [string, boolean, () => void][] = [
      ['enabled', sandbox.enabled === false, () => (config.enabled = false)],
      ['failIfUnavailable', sandbox.failIfUnavailable === false, () => (config.failIfUnavailable = false)],
      [
        'allowUnsandboxedCommands',
        sandbox.allowUnsandboxedCommands === true,
        () => (config.allowUnsandboxedCommands = true),
      ],
      [
        'autoAllowBashIfSandboxed',
        sandbox.autoAllowBashIfSandboxed !== undefined,
        () => (config.autoAllowBashIfSandboxed = sandbox.autoAllowBashIfSandboxed === true),
      ],
      [
        'excludedCommands',
        (sandbox.excludedCommands?.length ?? 0) > 0,
        () => config.excludedCommands.push(...(sandbox.excludedCommands ?? [])),
      ],
      [
        'network.allowedDomains',
        (sandbox.network?.allowedDomains?.length ?? 0) > 0,
        () => config.allowedDomains.push(...(sandbox.network?.allowedDomains ?? [])),
      ],
      [
        'network.allowUnixSockets',
        (sandbox.network?.allowUnixSockets?.length ?? 0) > 0,
        () => config.allowUnixSockets.push(...(sandbox.network?.allowUnixSockets ?? [])),
      ],
      [
        'network.allowLocalBinding',
        sandbox.network?.allowLocalBinding !== undefined,
        () => (config.allowLocalBinding = sandbox.network?.allowLocalBinding === true),
      ],
      [
        'filesystem.allowWrite',
        (sandbox.filesystem?.allowWrite?.length ?? 0) > 0,
        () => config.allowWrite.push(...paths(sandbox.filesystem?.allowWrite)),
      ],
      [
        'filesystem.allowRead',
        (sandbox.filesystem?.allowRead?.length ?? 0) > 0,
        () => config.allowRead.push(...paths(sandbox.filesystem?.allowRead)),
      ],
    ];
    for (const [key, present, set] of loosen) {
      if (!present) continue;
      if (untrusted) loosening(key);
      else set();
    }
  };

  const policy = sources.filter((s) => s.source === 'policySettings');
  for (const source of sources) if (source.source !== 'policySettings') apply(source);
  if (flag !== undefined) config.enabled = flag;
  for (const source of policy) apply(source);
  return { config, ignored };
}
