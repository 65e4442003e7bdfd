/** The built-in status line's text: model, permission mode, context used, cost, background shells. */
import type { PermissionMode } from '../../permissions/types';
import type { Style } from './ansi';

export type StatusFacts = {
  model: string;
  /** The engine could not be built. */
  startFailed?: boolean;
  mode: PermissionMode;
  contextTokens: number;
  contextWindow: number;
  costUsd: number;
  backgroundShells: number;
  verbose: boolean;
  /** Where tools run, relative to the folder Yoke started in; shown when it is not that folder. */
  cwd?: string;
};

const MODE_LABEL: Partial<Record<PermissionMode, string>> = {
  acceptEdits: '⏵⏵ accept edits on',
  plan: '⏸ plan mode on',
  bypassPermissions: '⏵⏵ bypass permissions on',
};

export function statusText(facts: StatusFacts, style: Style): string {
  const percent = facts.contextWindow > 0 ? Math.round((facts.contextTokens / facts.contextWindow) * 100) : 0;
  const parts = [
    facts.model || (facts.startFailed ? 'not started' : 'starting…'),
    MODE_LABEL[facts.mode] ?? `${facts.mode} mode`,
    `context ${percent}%`,
    `$${facts.costUsd.toFixed(facts.costUsd < 1 ? 4 : 2)}`,
  ];
  if (facts.cwd) parts.push(`in ${facts.cwd}`);
  if (facts.backgroundShells > 0) {
    parts.push(`${facts.backgroundShells} shell${facts.backgroundShells === 1 ? '' : 's'} running`);
  }
  if (facts.verbose) parts.push('full output');
  const mode = MODE_LABEL[facts.mode];
  const text = parts.join(' · ');
  return mode && style.color
    ? text.replace(mode, style.fg(facts.mode === 'plan' ? 'cyan' : 'magenta', mode))
    : style.dim(text);
}
