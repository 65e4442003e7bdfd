/**
 * Read deny rules for the memory loader: a memory file's `@path` import puts the file into the
 * system prompt, the model's view, so a file a `Read(...)` deny rule keeps from the model is left
 * out there too (a repository's CLAUDE.md with `@./.env` sent the .env the user denied). Built
 * from the settings' and the command line's deny rules, which are known before the permission
 * context is; judged on the path as written and on its real path, against each rule's folder as
 * written and as its real path, as the Read tool's rules are (path-policy.ts).
 */
import { realpathSync } from 'node:fs';
import type { SettingsRule } from '../config/settings-merge';
import { pathMatchesPattern, resolvePathPattern, withLiteralBase } from '../permissions/path-rules';
import { splitRuleList } from '../permissions/permission-context';
import { parseRule } from '../permissions/rule-string';
import type { PermissionRule } from '../permissions/types';

const realOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** Why `path` may not go into the prompt (the deny rule, described), or undefined. */
export type MemoryDenial = (path: string) => string | undefined;

export function memoryReadDenial(input: {
  settingsRules: readonly SettingsRule[];
  cliDisallowed: readonly string[];
  cwd: string;
  home: string;
}): MemoryDenial {
  const rules: PermissionRule[] = [
    ...input.settingsRules.flatMap((r) =>
      r.behavior === 'deny' ? [parseRule(r.rule, 'deny', r.source)].filter((x) => x !== undefined) : [],
    ),
    ...splitRuleList(input.cliDisallowed).flatMap((text) =>
      [parseRule(text, 'deny', 'cliArg')].filter((x) => x !== undefined),
    ),
  ].filter((rule) => rule.toolName === 'Read' && rule.ruleContent !== undefined);
  if (rules.length === 0) return () => undefined;
  const roots = { projectRoot: input.cwd, cwd: input.cwd, home: input.home };
  const patterns = rules.map((rule) => {
    const written = withLiteralBase(resolvePathPattern(rule.ruleContent as string, rule.source, roots));
    return { rule, written, real: { ...written, base: realOr(written.base) } };
  });
  return (path) => {
    const spellings = [path, realOr(path)];
    const hit = patterns.find(({ written, real }) =>
      spellings.some((p) => pathMatchesPattern(p, written) || pathMatchesPattern(p, real)),
    );
    return hit ? `Read(${hit.rule.ruleContent}) (${hit.rule.source})` : undefined;
  };
}
