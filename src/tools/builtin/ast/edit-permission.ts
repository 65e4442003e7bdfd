/**
 * The structural edits judged as Edits of the paths they change: ast_edit of its folder (so
 * acceptEdits lets it stage inside the project and an Edit deny rule there refuses it), resolve
 * of every staged file. A deny on any path refuses the whole call; one that would ask asks.
 */
import type { ToolPermissionResult } from '../../../permissions/types';
import type { ToolUseContext } from '../../context';
import { pathForModel } from '../glob/search-results';
import { fileRules } from '../lsp/file-rules';

/** `what` names the change in a refusal: "edit_1 would change src/a.ts: …". */
export function judgeAsEdits(
  paths: readonly string[],
  what: string,
  context: ToolUseContext,
): ToolPermissionResult {
  const rules = fileRules(context);
  const asks: string[] = [];
  let allAllowed = true;
  let allInside = true;
  for (const path of paths) {
    const label = pathForModel(path, context.cwd) || '.';
    const verdict = rules.judge('Edit', path);
    if (verdict.denied)
      return {
        behavior: 'deny',
        message: `${what} would change ${label}: ${verdict.denied.message.replace(/\.$/, '')}; nothing was written.`,
      };
    const reasons = [
      ...(verdict.askRule ? ['an ask rule covers it'] : []),
      ...verdict.protectedWrites.map((w) => w.reason),
      ...verdict.reasons,
    ];
    if (reasons.length > 0) asks.push(`${label} (${reasons.join('; ')})`);
    allAllowed &&= verdict.allowed;
    allInside &&= verdict.editsInside;
  }
  if (asks.length > 0)
    return { behavior: 'ask', message: `${what} changes files that need approval: ${asks.join(', ')}` };
  const { mode } = context.getPermissionContext();
  if (allAllowed || (allInside && (mode === 'acceptEdits' || mode === 'bypassPermissions')))
    return { behavior: 'allow' };
  return { behavior: 'passthrough' };
}
