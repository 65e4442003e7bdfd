/**
 * Rules for Bash, checked on every unit of the real parse. A line is allowed only when every
 * unit is; a deny on any unit (nested ones included) denies the line. Broad rules (prefix,
 * wildcard, bare `Bash`) never cover code strings, substitutions, destructive commands, dangerous
 * env prefixes, commands named by path or with non-ASCII names; exact rules name what the user
 * saw and may. Paths outside the working directories and writes need approval or a path rule.
 */
import { isFileWrite } from '../services/bash-parser';
import { allowRuleMatchesUnit, compileBashRule, denyRuleMatchesUnit, isBroad } from './bash-rule-match';
import { pathDenyVerdict } from './code-runners';
import { bashDenyVerdict, hiddenCodeDoubts, spelledMatch } from './deny-spellings';
import {
  byPrecedence,
  describeRule,
  type Evaluation,
  type EvaluationEnv,
  emptyEvaluation,
  pathRules,
} from './evaluation';
import { FolderWalks } from './folder-walks';
import { markPathsBehindNewLinks } from './line-links';
import { describePath, outsideReason, PathPolicy, type SpelledPath } from './path-policy';
import { markProtected, protectedShellWrites } from './protected-writes';
import { checkRecursiveReads } from './recursive-reads';
import { checkRepositoryContent } from './repository-content';
import { ANY_TOOL } from './rule-problems';
import { analyzeShellCommand } from './shell-analysis';
import { spelledPath, type TouchedPath } from './shell-paths';
import { allUnits, isTransparentWrapper, type ShellUnit } from './shell-unit';
import type { PermissionRule } from './types';

/**
 * How far a unit is allowed: by a rule, as a proven read, `scratch` — a proven plain file edit
 * (file-edit-commands.ts) whose every write lands in the session's scratchpad, on real paths —,
 * as an edit inside the project (acceptEdits), or not at all.
 */
type Status = 'rule' | 'safe' | 'scratch' | 'edit' | 'no';
const RANK: Record<Status, number> = { rule: 0, safe: 0, scratch: 1, edit: 2, no: 3 };
const worst = (a: Status, b: Status): Status => (RANK[b] > RANK[a] ? b : a);

class BashEvaluator {
  readonly result: Evaluation = emptyEvaluation();
  private readonly bashRules: PermissionRule[];
  private readonly policy: PathPolicy;
  private readonly readDenies: PermissionRule[];
  /** Read deny and ask rules: a recursive search over a file either covers asks first. */
  private readonly readGuards: PermissionRule[];
  /** Why a recursive read cannot run without asking, per touched folder. */
  private recursiveProblems: ReadonlyMap<TouchedPath, string> = new Map();

  constructor(private readonly env: EvaluationEnv) {
    this.bashRules = byPrecedence(env.rules.filter((r) => r.toolName === 'Bash'));
    this.policy = new PathPolicy(env, env.paths);
    this.readDenies = pathRules(env.rules, 'Read', 'deny');
    this.readGuards = [...this.readDenies, ...pathRules(env.rules, 'Read', 'ask')];
  }

  /** A touched path for a message (what it stands for, where a symlink leads). */
  private shown(touched: TouchedPath): string {
    const spelled = spelledPath(touched);
    return spelled ? describePath(touched.text, spelled, this.env.roots.cwd) : touched.text;
  }

  private rules(behavior: PermissionRule['behavior']) {
    return this.bashRules.filter((r) => r.behavior === behavior);
  }

  private pathRule(
    touched: TouchedPath | SpelledPath,
    tool: 'Read' | 'Edit',
    behavior: PermissionRule['behavior'],
  ): PermissionRule | undefined {
    const spelled = 'text' in touched ? spelledPath(touched) : touched;
    return spelled && this.policy.find(pathRules(this.env.rules, tool, behavior), spelled, behavior);
  }

  async findDeny(
    units: readonly ShellUnit[],
  ): Promise<{ message: string; rule?: PermissionRule } | undefined> {
    for (const unit of allUnits(units)) {
      for (const rule of this.rules('deny')) {
        const verdict = await bashDenyVerdict(rule, unit);
        if (verdict && 'denied' in verdict) return { rule, message: verdict.denied };
        if (verdict) this.mayRun(rule, verdict.doubt);
      }
      for (const touched of unit.writes) {
        const rule = this.pathRule(touched, 'Edit', 'deny');
        if (rule)
          return {
            rule,
            message: `Denied by rule ${describeRule(rule)}: \`${unit.text}\` writes ${this.shown(touched)}.`,
          };
      }
      for (const touched of unit.reads) {
        const rule = this.pathRule(touched, 'Read', 'deny');
        if (rule)
          return {
            rule,
            message: `Denied by rule ${describeRule(rule)}: \`${unit.text}\` reads ${this.shown(touched)}.`,
          };
      }
    }
    return undefined;
  }

  /**
   * A deny rule the call may break but no rule can settle: it asks in every mode, naming the
   * rule (as a search over a denied file does), so bypassPermissions cannot run past it.
   */
  mayRun(rule: PermissionRule, reason: string): void {
    this.result.askRule ??= rule;
    this.reason(reason);
  }

  /** A Bash ask rule on any unit, or a Read/Edit ask rule on a path it reads or writes. */
  async findAsk(units: readonly ShellUnit[]): Promise<PermissionRule | undefined> {
    for (const unit of allUnits(units)) {
      for (const rule of this.rules('ask')) {
        const compiled = await compileBashRule(rule.ruleContent);
        if (denyRuleMatchesUnit(compiled, unit) || spelledMatch(compiled, unit)) return rule;
      }
      for (const touched of unit.writes) {
        const rule = this.pathRule(touched, 'Edit', 'ask');
        if (rule) return rule;
      }
      for (const touched of unit.reads) {
        const rule = this.pathRule(touched, 'Read', 'ask');
        if (rule) return rule;
      }
    }
    return undefined;
  }

  private reason(text: string): void {
    if (!this.result.reasons.includes(text)) this.result.reasons.push(text);
  }

  /** A recursive read over a guarded file asks (naming both); other trouble is kept for readsOk. */
  async checkRecursiveReads(units: readonly ShellUnit[], walks: FolderWalks): Promise<void> {
    const findings = await checkRecursiveReads(units, {
      policy: this.policy,
      guards: this.readGuards,
      readAllows: pathRules(this.env.rules, 'Read', 'allow'),
      walks,
    });
    if (findings.askRule) this.result.askRule ??= findings.askRule;
    for (const reason of findings.reasons) this.reason(reason);
    this.recursiveProblems = findings.problems;
    // `git log -p`, `git show SHA`: any tracked file may be printed, a guarded one included.
    const content = await checkRepositoryContent(units, {
      policy: this.policy,
      guards: this.readGuards,
      ...(this.env.gitConfig ? { gitConfig: this.env.gitConfig } : {}),
    });
    if (content) {
      this.result.askRule ??= content.rule;
      this.reason(content.reason);
    }
  }

  /**
   * Reads outside the working dirs need a Read rule. An unknown path spoils the read-only proof,
   * and, when Read deny rules exist, any allowance: it might be a denied file.
   */
  private readsOk(unit: ShellUnit, status: Status): Status {
    let out = status;
    for (const touched of unit.reads) {
      const spelled = spelledPath(touched);
      const problem = this.recursiveProblems.get(touched);
      if (spelled === undefined) {
        if (status === 'safe') {
          out = worst(out, 'no');
          this.reason(`${touched.text} is only known when the command runs${because(touched)}`);
        } else if (this.readDenies.length > 0) {
          out = 'no';
          this.reason(
            `${touched.text} is only known when the command runs${because(touched)} and may be a denied file`,
          );
        }
      } else if (
        !this.policy.inside(spelled) &&
        !this.policy.inScratchpad(spelled) &&
        !this.pathRule(touched, 'Read', 'allow')
      ) {
        this.reason(outsideReason(touched.text, spelled, this.env.roots.cwd));
        out = 'no';
      } else if (problem) {
        this.reason(problem);
        out = 'no';
      }
    }
    return out;
  }

  private writesOk(unit: ShellUnit, status: Status): Status {
    let out = status;
    for (const touched of unit.writes) {
      const spelled = spelledPath(touched);
      if (spelled === undefined) {
        this.reason(
          `writes to ${touched.text}, which is only known when the command runs${because(touched)}`,
        );
        out = 'no';
      } else if (this.policy.inScratchpad(spelled)) {
        // Like the file tools: the scratchpad is the session's own. The write is what the
        // command's option table or its redirect proves it to be (an unknown one refuses above).
        out = worst(out, 'scratch');
      } else if (!this.policy.inside(spelled)) {
        this.reason(
          spelled.resolved === undefined
            ? outsideReason(touched.text, spelled, this.env.roots.cwd)
            : `writes ${describePath(touched.text, spelled, this.env.roots.cwd)} outside the project`,
        );
        out = 'no';
      } else if (touched.viaRedirect && !this.pathRule(touched, 'Edit', 'allow')) {
        // A rule for the command is not a rule for the file its output is sent to.
        out = worst(out, 'edit');
      }
    }
    return out;
  }

  async status(unit: ShellUnit): Promise<Status> {
    const allows = this.rules('allow');
    if (!unit.dangerousEnv) {
      for (const rule of allows) {
        const compiled = await compileBashRule(rule.ruleContent);
        if (isBroad(compiled)) continue;
        // The exact command and its redirects: everything was shown, nothing left to check.
        if (allowRuleMatchesUnit(compiled, unit)) {
          this.result.allowRule ??= rule;
          return 'rule';
        }
        // The exact command, but output sent to a file: that write is checked on its own.
        if (allowRuleMatchesUnit(compiled, unit, true)) {
          this.result.allowRule ??= rule;
          return this.writesOk({ ...unit, writes: unit.writes.filter((w) => w.viaRedirect) }, 'rule');
        }
      }
    }
    if (unit.kind !== 'command') {
      if (unit.dangerousEnv) this.reason(unit.dangerousEnv);
      if (unit.evalLike) this.reason(unit.evalLike);
      return this.writesOk(unit, unit.dangerousEnv || unit.evalLike ? 'no' : 'safe');
    }
    if (unit.argv[0]?.dynamic)
      this.reason(`the command name ${unit.argv[0].text} is only known when it runs`);
    if (unit.dangerousEnv) this.reason(unit.dangerousEnv);
    if (unit.nonAsciiName)
      this.reason(`the command name \`${unit.argv[0]?.text}\` contains non-ASCII characters`);
    if (unit.evalLike) this.reason(unit.evalLike);
    if (unit.substitution) this.reason('it runs a command substitution');
    if (unit.dangerousEnv || unit.nonAsciiName || unit.evalLike || unit.substitution || unit.argv[0]?.dynamic)
      return 'no';

    let status: Status = 'no';
    if (isTransparentWrapper(unit)) {
      status = 'rule';
      for (const child of unit.children) status = worst(status, await this.status(child));
    } else if (!unit.destructive && !unit.pathName) {
      for (const rule of allows) {
        if (allowRuleMatchesUnit(await compileBashRule(rule.ruleContent), unit)) {
          this.result.allowRule ??= rule;
          status = 'rule';
          break;
        }
      }
    }
    // A wrapper's verdict is its children's: one that refused (a read outside) stays refused.
    if (status === 'no' && unit.readOnlyCommand && !isTransparentWrapper(unit)) status = 'safe';
    if (status === 'no' && unit.readOnlyBlocker) this.reason(unit.readOnlyBlocker);
    if (status === 'no' && unit.fileWriting && !unit.destructive)
      status = this.scratchOnly(unit) ? 'scratch' : 'edit';
    if (status === 'no' && unit.notReadOnly) this.reason(unit.notReadOnly);
    if (status !== 'no' && !isTransparentWrapper(unit)) {
      for (const child of unit.children) status = worst(status, await this.status(child));
    }
    // `… | xargs cat` reads whatever files its input names: one may be denied.
    if (unit.name === 'xargs' && isTransparentWrapper(unit) && this.readDenies.length > 0) {
      this.reason('xargs takes file names from its input, which may name a file a Read deny rule covers');
      status = 'no';
    }
    return this.writesOk(unit, this.readsOk(unit, status));
  }

  /** Every write of the unit is known and inside the scratchpad (on its real path). */
  private scratchOnly(unit: ShellUnit): boolean {
    if (unit.writes.length === 0) return false;
    return unit.writes.every((touched) => {
      const spelled = spelledPath(touched);
      return spelled !== undefined && this.policy.inScratchpad(spelled);
    });
  }

  suggestionFor(unit: ShellUnit): string | undefined {
    if (unit.kind !== 'command' || unit.dangerousEnv || unit.nonAsciiName) return undefined;
    const redirects = unit.redirects.filter((r) => isFileWrite(r) && !r.inherited).map((r) => r.text);
    return `Bash(${[unit.text, ...redirects].join(' ')})`;
  }
}

const because = (touched: TouchedPath) => (touched.unknownBecause ? ` (${touched.unknownBecause})` : '');

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
    home: env.roots.home,
    paths: env.paths,
    ...(env.gitConfig ? { gitConfig: env.gitConfig } : {}),
  });
  markPathsBehindNewLinks(analysis.units, env.paths.fs);
  const denied = await evaluator.findDeny(analysis.units);
  if (denied) return { ...result, denied };
  const hidden = hiddenCodeDoubts(analysis.units, analysis.parseError, byPrecedence(env.rules));
  if (hidden) for (const reason of hidden.reasons) evaluator.mayRun(hidden.rule, reason);
  const paths = pathDenyVerdict(analysis.units, env);
  if ('denied' in paths) return { ...result, denied: paths.denied };
  for (const doubt of paths.doubts) evaluator.mayRun(doubt.rule, doubt.reason);
  await evaluator.checkRecursiveReads(analysis.units, env.walks ?? new FolderWalks());

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
