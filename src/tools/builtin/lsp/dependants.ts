/**
 * The files that import an edited one, found by their import lines (ripgrep): a write that
 * changes a signature breaks its callers, and the agent should hear of that too. A name match is
 * enough: the ledger reports only what is new, so a file that only looks like an importer costs
 * a check, never a false report.
 */
import { basename, extname } from 'node:path';
import type { ServerSpec } from '../../../services/lsp/servers';
import type { ToolUseContext } from '../../context';
import { locateRipgrep, runRipgrep } from '../shared/ripgrep';

export const MAX_DEPENDANTS = 10;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function importPattern(spec: ServerSpec, stem: string): string | undefined {
  const name = escapeRegex(stem);
  if (spec.id === 'typescript') return `['"][^'"]*/${name}(\\.[cm]?[jt]sx?)?['"]`;
  if (spec.id === 'pyright') return `^\\s*(from|import)\\s+([\\w.]*\\.)?${name}\\b`;
  return undefined;
}

export async function findDependants(
  context: ToolUseContext,
  spec: ServerSpec,
  root: string,
  path: string,
  signal: AbortSignal,
): Promise<string[]> {
  const stem = basename(path, extname(path));
  const pattern = importPattern(spec, stem);
  if (!pattern || !locateRipgrep(context.env).found) return [];
  const globs = Object.keys(spec.languages).flatMap((ext) => ['-g', `*${ext}`]);
  const result = await runRipgrep(
    ['-l', '--no-messages', '-e', pattern, ...globs, '-g', '!node_modules', '-g', '!.venv', '--', root],
    { cwd: root, signal, env: context.env, maxLines: MAX_DEPENDANTS + 1 },
  );
  return result.lines.filter((file) => file && file !== path).slice(0, MAX_DEPENDANTS);
}
