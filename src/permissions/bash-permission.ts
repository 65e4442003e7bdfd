/**
 * Rules for Bash, checked on every unit of the real parse. A line is allowed only when every
 * unit is; a deny on any unit (nested ones included) denies the line. Broad rules (prefix,
 * wildcard, bare `Bash`) never cover code strings, substitutions, destructive commands, dangerous
 * env prefixes, commands named by path or with non-ASCII names; exact rules name what the user
 * saw and may. Paths outside the working directories and writes need approval or a path rule.
 * The per-unit checks live in bash-evaluator.ts.
 */
import { archiveWriteReason } from './archive-writes';
import { BashEvaluator, type Status, worst } from './bash-evaluator';
import { pathDenyVerdict } from './code-runners';
import { hiddenCodeDoubts } from './deny-spellings';
import { byPrecedence, describeRule, type Evaluation, type EvaluationEnv, pathRules } from './evaluation';
import { FolderWalks } from './folder-walks';
import { inputNamedWriteReason } from './input-named-writes';
import { markPathsBehindNewLinks } from './line-links';
import { markProtected, protectedShellWrites } from './protected-writes';
import { ANY_TOOL } from './rule-problems';
import { analyzeShellCommand } from './shell-analysis';
import type { TouchedPath } from './shell-paths';
import { allUnits } from './shell-unit';
import type { PermissionRule } from './types';
import { unreadCommandReason } from './unread-commands';

const touchesOnlyKnown = (paths: readonly TouchedPath[]) => paths.every((p) => p.path !== undefined);

/** Rules and facts for one Bash command line. */
export async function evaluateBash(command: string, env: EvaluationEnv): Promise<Evaluation> {
  const evaluator = new BashEvaluator(env);
  const result = evaluator.result;
  // A rule on the whole tool covers every command, whether or not it parses into units.
  const wholeTool = (behavior: PermissionRule['behavior']) =>
    byPrecedence(env.rules).find(
      (r) =>
        (r.toolName === 'Bash' || r.toolName === ANY_TOOL) &&
        r.behavior === behavior &&
        r.ruleContent === undefined,
    );
  const deniedTool = wholeTool('deny');
  if (deniedTool)
    return {
      ...result,
      denied: { rule: deniedTool, message: `Denied by rule ${describeRule(deniedTool)}.` },
    };
  const analysis = await analyzeShellCommand(command, {
    cwd: env.roots.cwd,
    projectRoot: env.roots.projectRoot,
    home: env.roots.home,
    paths: env.paths,
    ...(env.gitConfig ? { gitConfig: env.gitConfig } : {}),
  });
  markPathsBehindNewLinks(analysis.units, env.paths.fs);
  const denied = await evaluator.findDeny(analysis.units);
  if (denied) return { ...result, denied };
  const hidden = hiddenCodeDoubts(
    analysis.units,
    analysis.parseError,
    byPrecedence(env.rules),
    unreadCommandReason,
  );
  if (hidden) for (const reason of hidden.reasons) evaluator.mayRun(hidden.rule, reason);
  const paths = pathDenyVerdict(analysis.units, env);
  if ('denied' in paths) return { ...result, denied: paths.denied };
  for (const doubt of paths.doubts) evaluator.mayRun(doubt.rule, doubt.reason);
  const editDeny = pathRules(env.rules, 'Edit', 'deny')[0];
  if (editDeny)
    for (const unit of allUnits(analysis.units)) {
      const writes = archiveWriteReason(unit) ?? inputNamedWriteReason(unit);
      if (writes)
        evaluator.mayRun(editDeny, `${writes}; the deny rule ${describeRule(editDeny)} may cover them`);
    }
  await evaluator.checkRecursiveReads(analysis.units, env.walks ?? new FolderWalks());
  await evaluator.markConfigForcedPushes(analysis.units);

  for (const unit of allUnits(analysis.units)) {
    if (unit.destructive && !result.warnings.includes(unit.destructive))
      result.warnings.push(unit.destructive);
    if (unit.dangerousEnv) result.hardReasons.push(unit.dangerousEnv);
    if (unit.nonAsciiName) result.hardReasons.push('non-ASCII command name');
  }
  if (analysis.forkBomb)
    result.warnings.push('this defines a function that spawns itself without end (a fork bomb)');
  if (result.warnings.length > 0) result.hardReasons.push('destructive command');
  if (analysis.parseError) {
    result.hardReasons.push('unparsable command');
    result.reasons.push('the command could not be parsed reliably');
  }

  const trimmed = command.trim();
  const whole = (behavior: PermissionRule['behavior']) =>
    byPrecedence(env.rules).find(
      (r) => r.toolName === 'Bash' && r.behavior === behavior && r.ruleContent?.trim() === trimmed,
    );
  const askRule =
    wholeTool('ask') ?? whole('ask') ?? (await evaluator.findAsk(analysis.units)) ?? result.askRule;
  if (askRule) {
    result.askRule = askRule;
    result.hardReasons.push('ask rule');
  }
  const guarded = await protectedShellWrites(command, analysis.units, env);
  const wholeAllow = whole('allow');
  if (wholeAllow && !analysis.parseError)
    return markProtected({ ...result, allowed: true, allowRule: wholeAllow, editsInside: true }, guarded);
  if (analysis.parseError || analysis.units.length === 0) return markProtected(result, guarded);

  let overall: Status = 'rule';
  for (const unit of analysis.units) {
    const status = await evaluator.status(unit);
    overall = worst(overall, status);
    const suggestion =
      status === 'rule' || status === 'safe' || status === 'scratch'
        ? undefined
        : evaluator.suggestionFor(unit);
    if (suggestion && !result.suggestions.includes(suggestion)) result.suggestions.push(suggestion);
  }
  if (analysis.forkBomb) overall = 'no';
  const everyUnit = [...allUnits(analysis.units)];
  result.readOnly =
    !analysis.hasSubstitution &&
    !analysis.forkBomb &&
    overall !== 'no' &&
    analysis.units.every((u) => u.readOnly && !u.evalLike) &&
    everyUnit.every((u) => touchesOnlyKnown(u.reads) && u.writes.length === 0);
  result.onlyReads = !analysis.hasSubstitution && analysis.units.every((u) => u.readOnly && !u.evalLike);
  result.allowed = overall === 'rule' || overall === 'safe';
  // Only scratchpad writes beyond what is allowed: the decision allows them as for the file tools.
  result.inScratchpad = overall === 'scratch';
  result.editsInside = overall !== 'no';
  return markProtected(result, guarded);
}
