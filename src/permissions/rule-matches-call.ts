/**
 * Whether one permission-rule string (`Bash(git push:*)`, `Edit(src/**)`, `WebFetch(domain:x.io)`,
 * `Read`) matches one tool call, outside any allow/ask/deny list. Hook handlers use it for their
 * `if` condition (compat-surface §2.2): the handler runs only for calls the rule matches.
 *
 * The question here is "does this call concern what the rule names", not "does the rule allow the
 * call", so Bash is matched the way deny rules are:
 *   - ANY simple-command unit of the line may match, nested ones included (`npm test && git push`,
 *     `timeout 5 git push`, `sh -c 'git push'` all match `Bash(git push:*)`). A guard hook that only
 *     fired when every part of a compound line matched would be dodged by prefixing `true &&`.
 *   - the command name matches under any spelling (`/usr/bin/git push`), and redirects do not stop
 *     an exact rule from matching.
 *   - a line that does not parse matches: nothing proves the rule's command is absent from it.
 * Other tools reuse the rule matching of tool-rules.ts: path globs for the file tools (an `Edit`
 * rule covers every tool that edits files, a `Read` rule every tool that reads them), `domain:`
 * for WebFetch, MCP server and tool names. A bare tool name matches every call of that tool; a
 * rule naming another tool never matches. Which tools edit, read or run commands is what the
 * call's tool declares (`ToolAccess`), not its name.
 */
import { homedir } from 'node:os';
import { compileBashRule, denyRuleMatchesUnit } from './bash-rule-match';
import type { EvaluationEnv } from './evaluation';
import { PathPolicy } from './path-policy';
import { diskPathFs, RealPaths } from './real-paths';
import { canonicalToolName, parseRuleValue } from './rule-string';
import { analyzeShellCommand } from './shell-analysis';
import { allUnits } from './shell-unit';
import { ruleMatchesTool, type ToolFacts, targetPath } from './tool-rules';
import type { RuleSource, ToolAccess } from './types';

export type RuleCallRoots = { cwd: string; projectRoot: string; home?: string };

/** The call a condition is tested on: its tool's name and declared access, and its input. */
export type RuleCall = { toolName: string; access: ToolAccess; input: Record<string, unknown> };

/**
 * A `/path` pattern is relative to the root of the rule's source. Hook settings from all files are
 * concatenated without their source, so hook conditions read `/path` as project-relative, which is
 * what a project's `.claude/settings.json` (where shared hooks live) means by it.
 */
const CONDITION_SOURCE: RuleSource = 'projectSettings';

/** Whether `ruleText` matches this call; an unparsable rule matches nothing (callers report it). */
export async function ruleMatchesCall(
  ruleText: string,
  call: RuleCall,
  roots: RuleCallRoots,
): Promise<boolean> {
  const rule = parseRuleValue(ruleText);
  if (!rule) return false;
  const { toolName, input } = call;
  if (call.access === 'shell' && canonicalToolName(rule.toolName) === canonicalToolName(toolName)) {
    return bashRuleMatches(rule.ruleContent, input, roots);
  }
  // Only the name, access and input take part in rule matching; the risk facts are for evaluation.
  const facts: ToolFacts = {
    toolName: canonicalToolName(toolName),
    aliases: toolName === canonicalToolName(toolName) ? [] : [toolName],
    input,
    tier: 'exec',
    isMcp: toolName.startsWith('mcp__'),
    access: call.access,
    isReadOnly: false,
  };
  const env: EvaluationEnv = {
    rules: [],
    roots: { cwd: roots.cwd, projectRoot: roots.projectRoot, home: roots.home ?? homedir() },
    workingDirs: [],
    paths: new RealPaths(diskPathFs),
  };
  const policy = new PathPolicy(env, env.paths);
  const path = targetPath(facts, env.roots.cwd, env.roots.home);
  return ruleMatchesTool(
    {
      toolName: rule.toolName,
      ...(rule.ruleContent === undefined ? {} : { ruleContent: rule.ruleContent }),
      // "Concerns" the way a deny rule does: any spelling of the path (a symlink to it too).
      behavior: 'deny',
      source: CONDITION_SOURCE,
    },
    facts,
    path === undefined ? undefined : policy.spell(path),
    policy,
  );
}

async function bashRuleMatches(
  content: string | undefined,
  input: Record<string, unknown>,
  roots: RuleCallRoots,
): Promise<boolean> {
  if (content === undefined) return true;
  const command = input.command;
  if (typeof command !== 'string') return false;
  const compiled = await compileBashRule(content);
  const analysis = await analyzeShellCommand(command, {
    cwd: roots.cwd,
    ...(roots.home === undefined ? {} : { home: roots.home }),
  });
  if (analysis.parseError) return true;
  for (const unit of allUnits(analysis.units)) {
    if (denyRuleMatchesUnit(compiled, unit)) return true;
  }
  return false;
}
