/**
 * The per-unit half of the Bash decision: deny and ask rules on every unit (nested ones
 * included), how far each unit is allowed (by rule, as a proven read, a scratchpad or project
 * edit), the reasons it is not, and the rule it would take. evaluateBash (bash-permission.ts)
 * runs it over one parsed command line.
 */
import { GIT_READ_ONLY_SUBCOMMANDS, gitSubcommandIndex, isFileWrite } from '../services/bash-parser';
import {
  allowRuleMatchesUnit,
  type CompiledBashRule,
  compileBashRule,
  denyRuleMatchesUnit,
  isBroad,
} from './bash-rule-match';
import { filesCopiedInto } from './copy-targets';
import { bashDenyVerdict, spelledMatch, spelledVerdict } from './deny-spellings';
import {
  byPrecedence,
  describeRule,
  type Evaluation,
  type EvaluationEnv,
  emptyEvaluation,
  pathRules,
} from './evaluation';
import type { FolderWalks } from './folder-walks';
import { gitConfigSpelling } from './git-config-spellings';
import type { GitLineSettings } from './git-line-config';
import { describePath, outsideReason, PathPolicy, type SpelledPath } from './path-policy';
import { checkRecursiveReads } from './recursive-reads';
import { checkRepositoryContent } from './repository-content';
import { spelledPath, type TouchedPath } from './shell-paths';
import { allUnits, isTransparentWrapper, type ShellUnit } from './shell-unit';
import type { PermissionRule } from './types';
import { takesUnshownInput } from './unshown-input';

/** The rule a push git's configuration forces is judged against. */
const FORCED_PUSH = 'git push --force:*';

/** git's own commands other than push that a line most often runs: never an alias, never a push. */
const GIT_OWN_COMMANDS: ReadonlySet<string> = new Set([
  ...GIT_READ_ONLY_SUBCOMMANDS,
  ...['add', 'commit', 'checkout', 'switch', 'restore', 'reset', 'merge', 'rebase', 'pull', 'fetch'],
  ...['clone', 'init', 'stash', 'branch', 'tag', 'mv', 'rm', 'cherry-pick', 'revert', 'am', 'apply'],
  ...['remote', 'config', 'worktree', 'submodule', 'clean', 'bisect', 'notes', 'gc', 'reflog'],
]);

/**
 * How far a unit is allowed: by a rule, as a proven read, `scratch` — a proven plain file edit
 * (file-edit-commands.ts) whose every write lands in the session's scratchpad, on real paths —,
 * as an edit inside the project (acceptEdits), or not at all.
 */
export type Status = 'rule' | 'safe' | 'scratch' | 'edit' | 'no';
const RANK: Record<Status, number> = { rule: 0, safe: 0, scratch: 1, edit: 2, no: 3 };
export const worst = (a: Status, b: Status): Status => (RANK[b] > RANK[a] ? b : a);

export class BashEvaluator {
  readonly result: Evaluation = emptyEvaluation();
  private readonly bashRules: PermissionRule[];
  private readonly policy: PathPolicy;
  private readonly readDenies: PermissionRule[];
  /** Read deny and ask rules: a recursive search over a file either covers asks first. */
  private readonly readGuards: PermissionRule[];
  /** Why a recursive read cannot run without asking, per touched folder. */
  private recursiveProblems: ReadonlyMap<TouchedPath, string> = new Map();
  /** git's aliases and push settings per folder and options, read once for this line. */
  private readonly gitLines = new Map<string, Promise<GitLineSettings>>();

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

  /**
   * An Edit rule of `behavior` on a file a copy or move puts into its destination folder
   * (`cp -t . dir/x`, `mv --target-directory=. dir/x`, `cp -r dir/. .` write `./x`): the unit's
   * writes name only the folder.
   */
  private async copiedInto(
    unit: ShellUnit,
    behavior: 'deny' | 'ask',
  ): Promise<{ rule: PermissionRule; path: string } | undefined> {
    const rules = pathRules(this.env.rules, 'Edit', behavior);
    if (rules.length === 0) return undefined;
    for (const path of (await filesCopiedInto(unit, this.env.roots)) ?? []) {
      const rule = this.policy.find(rules, { path }, behavior);
      if (rule) return { rule, path };
    }
    return undefined;
  }

  async findDeny(
    units: readonly ShellUnit[],
  ): Promise<{ message: string; rule?: PermissionRule } | undefined> {
    for (const unit of allUnits(units)) {
      for (const rule of this.rules('deny')) {
        const verdict = (await bashDenyVerdict(rule, unit)) ?? (await this.gitConfigVerdict(rule, unit));
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
      const copied = await this.copiedInto(unit, 'deny');
      if (copied)
        return {
          rule: copied.rule,
          message: `Denied by rule ${describeRule(copied.rule)}: \`${unit.text}\` copies a file to ${copied.path}.`,
        };
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
        if (await this.gitSpelling(compiled, unit)) return rule;
      }
      for (const touched of unit.writes) {
        const rule = this.pathRule(touched, 'Edit', 'ask');
        if (rule) return rule;
      }
      const copied = await this.copiedInto(unit, 'ask');
      if (copied) return copied.rule;
      for (const touched of unit.reads) {
        const rule = this.pathRule(touched, 'Read', 'ask');
        if (rule) return rule;
      }
    }
    return undefined;
  }

  /** What git's configuration (aliases, forcing push settings) makes the unit run, against a rule. */
  private gitSpelling(rule: CompiledBashRule, unit: ShellUnit, programs = true) {
    const gitConfig = this.env.gitConfig;
    if (!gitConfig) return Promise.resolve(undefined);
    return gitConfigSpelling(
      rule,
      unit,
      (dir, options) => {
        const key = JSON.stringify([dir, options]);
        let found = this.gitLines.get(key);
        if (!found) {
          found = gitConfig.lineConfig.read(dir, options);
          this.gitLines.set(key, found);
        }
        return found;
      },
      programs,
    );
  }

  /**
   * A `git push` that git's configuration forces (a mirror remote, a `+` refspec, for the remote
   * git picks when the line names none) is destructive as `git push --force` is: no broad allow
   * rule covers it, and the question warns. An alias may spell the push, so any git subcommand
   * that is not one of git's own is read too (git ignores an alias named like its own command).
   */
  async markConfigForcedPushes(units: readonly ShellUnit[]): Promise<void> {
    if (!this.env.gitConfig) return;
    for (const unit of allUnits(units)) {
      if (unit.kind !== 'command' || unit.name !== 'git' || unit.destructive) continue;
      const words = unit.argv.slice(1).map((w) => w.value);
      const sub = words[gitSubcommandIndex(words)];
      if (sub === undefined || (sub !== 'push' && GIT_OWN_COMMANDS.has(sub))) continue;
      const forced = await this.gitSpelling(await compileBashRule(FORCED_PUSH), unit, false);
      if (forced) unit.destructive = `git push may force-update the remote's refs: ${forced.reason}`;
    }
  }

  private async gitConfigVerdict(
    rule: PermissionRule,
    unit: ShellUnit,
  ): Promise<{ denied: string } | { doubt: string } | undefined> {
    const spelled = await this.gitSpelling(await compileBashRule(rule.ruleContent), unit);
    return spelled && spelledVerdict(rule, unit, spelled);
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
    // Its rule would allow any input the unit runs or takes as arguments (unshown-input.ts).
    if (takesUnshownInput(unit)) return undefined;
    const redirects = unit.redirects.filter((r) => isFileWrite(r) && !r.inherited).map((r) => r.text);
    return `Bash(${[unit.text, ...redirects].join(' ')})`;
  }
}

const because = (touched: TouchedPath) => (touched.unknownBecause ? ` (${touched.unknownBecause})` : '');
