/**
 * The protected-file check as both evaluators use it: which protected files a call writes that no
 * lifting rule covers (protected-paths.ts says what is protected and who may lift it), and what
 * that does to the evaluation.
 */
import { relative } from 'node:path';
import { filesCopiedInto } from './copy-targets';
import type { Evaluation, EvaluationEnv } from './evaluation';
import { isWithin, pathMatchesRule } from './path-rules';
import { defaultProtectedPaths, liftsProtection, type ProtectedWrite } from './protected-paths';
import type { RealPath } from './real-paths';
import { allUnits, type ShellUnit } from './shell-unit';

/** Lifting rules that name a file: `Edit(…)` (any edit tool's name) from a source that may lift. */
const liftingPathRules = (env: EvaluationEnv) =>
  env.rules.filter(
    (r) =>
      r.behavior === 'allow' &&
      r.ruleContent !== undefined &&
      liftsProtection(r) &&
      ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(r.toolName),
  );

function shown(path: string, env: EvaluationEnv): string {
  const root = env.roots.projectRoot;
  if (isWithin(path, root) && path !== root) return relative(root, path);
  if (isWithin(path, env.roots.home)) return `~/${relative(env.roots.home, path)}`;
  return path;
}

/**
 * Why writing `path` needs consent, unless a lifting `Edit(…)` rule names it; else undefined.
 * `shellPattern`: the path is a shell word that braces or globs may expand. `resolved`: where the
 * path really leads through symlinks — a link to `.git/config` writes `.git/config`.
 */
export function protectedFileWrite(
  path: string,
  env: EvaluationEnv,
  shellPattern = false,
  resolved?: RealPath,
): ProtectedWrite | undefined {
  const written = protectedSpelling(path, env, shellPattern);
  if (written !== undefined || !resolved || resolved.real === path) return written;
  return protectedSpelling(resolved.real, env, false);
}

function protectedSpelling(
  path: string,
  env: EvaluationEnv,
  shellPattern: boolean,
): ProtectedWrite | undefined {
  const protection = env.protection ?? defaultProtectedPaths(env.roots.home);
  const why = shellPattern ? protection.whyPattern(path, env.rules) : protection.why(path, env.rules);
  if (!why) return undefined;
  const lifted = liftingPathRules(env).some((r) =>
    pathMatchesRule(path, r.ruleContent as string, r.source, env.roots),
  );
  const target = shown(path, env);
  return lifted ? undefined : { target, reason: `${target} is protected: ${why}` };
}

/** An exact `Bash(…)` rule from a lifting source spells out this unit, redirects included. */
async function exactLiftingRule(unit: ShellUnit, env: EvaluationEnv): Promise<boolean> {
  for (const rule of env.rules) {
    if (rule.toolName !== 'Bash' || rule.behavior !== 'allow' || !liftsProtection(rule)) continue;
    const { allowRuleMatchesUnit, compileBashRule, isBroad } = await import('./bash-rule-match');
    const compiled = await compileBashRule(rule.ruleContent);
    if (!isBroad(compiled) && allowRuleMatchesUnit(compiled, unit)) return true;
  }
  return false;
}

/**
 * The protected files a command line writes that no lifting rule covers: every file a unit
 * writes (redirects, cp/mv/tee targets, in-place edits), nested units included. A target only
 * the running shell knows counts as possibly protected.
 */
export async function protectedShellWrites(
  command: string,
  units: readonly ShellUnit[],
  env: EvaluationEnv,
): Promise<ProtectedWrite[]> {
  const whole = command.trim();
  const wholeRule = env.rules.some(
    (r) =>
      r.toolName === 'Bash' &&
      r.behavior === 'allow' &&
      liftsProtection(r) &&
      r.ruleContent?.trim() === whole,
  );
  if (wholeRule) return [];
  const out: ProtectedWrite[] = [];
  for (const unit of allUnits(units)) {
    const hits: ProtectedWrite[] = [];
    for (const touched of unit.writes) {
      const hit =
        touched.path === undefined
          ? {
              target: touched.text,
              reason: `${touched.text} is only known when it runs and may be a protected file`,
            }
          : protectedFileWrite(touched.path, env, true, touched.resolved);
      if (hit) hits.push(hit);
    }
    const copied = await filesCopiedInto(unit, env.roots);
    if (copied === undefined)
      hits.push({
        target: unit.text,
        reason: `\`${unit.text}\` copies files only known when it runs, which may be protected files`,
      });
    for (const path of copied ?? []) {
      const hit = protectedFileWrite(path, env, true);
      if (hit) hits.push(hit);
    }
    if (hits.length === 0 || (await exactLiftingRule(unit, env))) continue;
    for (const hit of hits) if (!out.some((w) => w.target === hit.target)) out.push(hit);
  }
  return out;
}

/**
 * Records protected writes on an evaluation: no rule of a non-lifting source and no mode (but
 * `bypassPermissions`) may allow the call, so it is neither allowed, read-only nor an edit
 * acceptEdits may take, and no classifier may decide it.
 */
export function markProtected(evaluation: Evaluation, writes: readonly ProtectedWrite[]): Evaluation {
  if (writes.length === 0) return evaluation;
  evaluation.protectedWrites.push(...writes);
  for (const { reason } of writes) if (!evaluation.reasons.includes(reason)) evaluation.reasons.push(reason);
  evaluation.hardReasons.push('writes a protected file');
  evaluation.allowed = false;
  delete evaluation.allowRule;
  evaluation.readOnly = false;
  evaluation.editsInside = false;
  return evaluation;
}
