/**
 * Flags whose feature lands in a later release. They are accepted (so SDK argv and scripts parse)
 * and only refuse to run when actually used with a value that needs the missing feature.
 */
import type { CliOptions } from './cli-options';

export class FeatureUnavailableError extends Error {
  override name = 'FeatureUnavailableError';
  constructor(readonly feature: string) {
    super(`not available yet: ${feature}`);
  }
}

type UnavailableFlag = {
  flag: string;
  feature: string;
  used: (options: CliOptions) => boolean;
  /** What `--help` adds to the flag's line, when only some of its values are missing. */
  helpNote?: string;
};

/** The table behind the README's feature list; order is the order of the checks. */
export const UNAVAILABLE_FLAGS: readonly UnavailableFlag[] = [
  {
    flag: '--resume-drops-turn',
    feature: 'resuming without a turn (--resume-drops-turn)',
    used: (o) => o.resumeDropsTurn !== undefined,
  },
  {
    flag: '--session-mirror',
    feature: 'transcript mirroring (--session-mirror)',
    used: (o) => o.sessionMirror,
  },
  {
    flag: '--permission-prompt-tool',
    feature: 'MCP permission prompt tools (--permission-prompt-tool <mcp tool>)',
    used: (o) => o.permissionPromptTool !== undefined && o.permissionPromptTool !== 'stdio',
    helpNote: '(an MCP tool: not available yet)',
  },
];

/**
 * Flags that are accepted — so SDK argv and scripts written for Claude Code run — but change
 * nothing yet. `--help` marks them, as it marks `UNAVAILABLE_FLAGS`.
 */
export const NO_EFFECT_FLAGS: readonly string[] = [
  '--betas',
  '--thinking-display',
  '--replay-user-messages',
  '--permission-prompts',
  '--project-config-root',
];

/** Throws `FeatureUnavailableError` for the first flag that needs a missing feature. */
export function checkAvailableFeatures(options: CliOptions): void {
  const missing = UNAVAILABLE_FLAGS.find((entry) => entry.used(options));
  if (missing) throw new FeatureUnavailableError(missing.feature);
}
