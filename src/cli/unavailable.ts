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

type UnavailableFlag = { flag: string; feature: string; used: (options: CliOptions) => boolean };

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
  { flag: '--mcp-config', feature: 'MCP servers (--mcp-config)', used: (o) => o.mcpConfigs.length > 0 },
  {
    flag: '--permission-prompt-tool',
    feature: 'MCP permission prompt tools (--permission-prompt-tool <mcp tool>)',
    used: (o) => o.permissionPromptTool !== undefined && o.permissionPromptTool !== 'stdio',
  },
  {
    flag: '--agents',
    feature: 'custom subagents (--agents)',
    used: (o) => o.agents !== undefined && Object.keys(o.agents).length > 0,
  },
  { flag: '--agent', feature: 'running as an agent (--agent)', used: (o) => o.agent !== undefined },
  { flag: '--plugin-dir', feature: 'plugins (--plugin-dir)', used: (o) => o.pluginDirs.length > 0 },
];

/** Throws `FeatureUnavailableError` for the first flag that needs a missing feature. */
export function checkAvailableFeatures(options: CliOptions): void {
  const missing = UNAVAILABLE_FLAGS.find((entry) => entry.used(options));
  if (missing) throw new FeatureUnavailableError(missing.feature);
}
