/**
 * The read-only views of the running session: /cost (what was spent), /context (what fills the
 * window) and /status (who and where the session is). Figures come from the host's snapshots, the
 * same ones the status line shows.
 */
import { settingsSourceLabel } from '../../config/load-settings';
import { contextBreakdown, formatContextBreakdown } from '../../interactive/context-breakdown';
import { groupDigits } from '../../lib/group-digits';
import type { CommandHost, CostSnapshot, LocalCommand } from '../types';

const tokens = groupDigits;
const usd = (n: number) => `$${n.toFixed(4)}`;

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** The whole session's dollars: this run's plus, after a resume, its earlier runs'. */
export function sessionCostUsd(cost: Pick<CostSnapshot, 'costUsd' | 'earlier'>): number {
  return cost.costUsd + (cost.earlier?.costUsd ?? 0);
}

const tokenCounts = (usage: CostSnapshot['usage']) =>
  `${tokens(usage.inputTokens)} in, ${tokens(usage.outputTokens)} out, ` +
  `${tokens(usage.cacheReadInputTokens)} cache read, ${tokens(usage.cacheCreationInputTokens)} cache write`;

export function formatCost(cost: CostSnapshot): string {
  // A resumed session's total counts its earlier runs (their transcript's cost lines); the lines
  // below it are this run's, and say so.
  const earlier = cost.earlier && cost.earlier.requests > 0 ? cost.earlier : undefined;
  const lines = earlier
    ? [
        `Total cost:        ${usd(sessionCostUsd(cost))} for the whole session`,
        `  earlier runs:    ${usd(earlier.costUsd)} — ${earlier.requests} API request${earlier.requests === 1 ? '' : 's'}; ${tokenCounts(earlier.usage)}`,
        `  this run:        ${usd(cost.costUsd)}`,
      ]
    : [`Total cost:        ${usd(cost.costUsd)}`];
  const thisRun = earlier ? ' this run' : '';
  lines.push(
    `API requests:      ${cost.requests}${thisRun} (${duration(cost.apiDurationMs)} waiting for the API)`,
    `Session duration:  ${duration(cost.sessionDurationMs)}${thisRun}`,
    `Tokens:            ${tokenCounts(cost.usage)}${thisRun}`,
  );
  const models = Object.entries(cost.byModel);
  if (models.length > 1 || (models.length === 1 && cost.requests > 0)) {
    lines.push(`By model${thisRun}:`);
    for (const [model, u] of models) {
      lines.push(`  ${model}: ${usd(u.costUSD)} — ${tokenCounts(u)}`);
    }
  }
  if (cost.requests + (earlier?.requests ?? 0) > 0 && sessionCostUsd(cost) === 0)
    lines.push('A model without known prices counts as $0; declare its prices under "models" in settings.');
  return lines.join('\n');
}

export const costCommand: LocalCommand = {
  kind: 'local',
  headless: true,
  name: 'cost',
  description: 'Show what this session has spent, in dollars and tokens',
  run: async (_args, host) => ({ kind: 'text', text: formatCost(host.cost()) }),
};

export const contextCommand: LocalCommand = {
  kind: 'local',
  headless: true,
  name: 'context',
  description: 'Show what fills the context window, by category',
  async run(_args, host) {
    const model = host.model();
    const breakdown = contextBreakdown(host.context(), host.models.contextWindow(model));
    return { kind: 'text', text: formatContextBreakdown(breakdown, model) };
  },
};

async function statusText(host: CommandHost): Promise<string> {
  const [settings, trusted] = await Promise.all([host.loadSettings(), host.projectTrusted()]);
  const model = host.model();
  const breakdown = contextBreakdown(host.context(), host.models.contextWindow(model));
  const shells = host.backgroundShells();
  const running = shells.filter((s) => s.status === 'running').length;
  const memory = host.context().memoryFiles.map((f) => f.path);
  const files = settings.sources.map((s) => `${settingsSourceLabel(s)} (${s.source})`);
  const lines = [
    `Yoke ${YOKE_VERSION}`,
    `Session:          ${host.sessionId}`,
    `Transcript:       ${host.transcriptPath ?? '(not written yet)'}`,
    `Working folder:   ${host.cwd}`,
    `Project root:     ${host.projectRoot}${trusted ? '' : ' (not trusted: project allow rules are ignored, and in the interactive UI its hooks too)'}`,
    `Model:            ${model}`,
    `Permission mode:  ${host.permissionMode()}`,
    `Context:          ${tokens(breakdown.total)} of ${tokens(breakdown.window)} tokens (${Math.round(breakdown.fraction * 100)}%)`,
    `Cost:             ${usd(host.cost().costUsd)}`,
    `Background shells: ${running} running, ${shells.length - running} finished`,
    `Memory files:     ${memory.length === 0 ? 'none' : memory.join(', ')}`,
    `Settings files:   ${files.length === 0 ? 'none' : files.join(', ')}`,
  ];
  const problems = host.settingsProblems();
  for (const error of problems.errors) lines.push(`error: ${error}`);
  for (const warning of problems.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}

export const statusCommand: LocalCommand = {
  kind: 'local',
  headless: true,
  name: 'status',
  description: 'Show the session, model, mode, folders, settings files and their problems',
  run: async (_args, host) => ({ kind: 'text', text: await statusText(host) }),
};
