/**
 * Rules and facts for every tool but the shell: bare tool names, path rules for the file tools
 * (an `Edit(...)` rule covers every tool that edits files, a `Read(...)` rule every tool that
 * reads or searches them), `WebFetch(domain:…)`, MCP server and tool rules, `Agent(type)` and
 * `Skill(name)`. Which tools read, edit or fetch is what each tool declares (`ToolAccess`).
 */
import { relative } from 'node:path';
import {
  byPrecedence,
  describeRule,
  type Evaluation,
  type EvaluationEnv,
  emptyEvaluation,
} from './evaluation';
import { splitPatternBase } from './glob-base';
import { mcpProtectedWrites, pathLikeStrings } from './mcp-path-arguments';
import { outsideReason, PathPolicy, type SpelledPath } from './path-policy';
import { isWithin, resolveUserPath } from './path-rules';
import { markProtected, protectedFileWrite } from './protected-writes';
import { ANY_TOOL } from './rule-problems';
import { canonicalToolName } from './rule-string';
import type { PermissionRule, ToolAccess } from './types';
import { canonicalHost, hostOfUrl } from './web-host';

/** Rule names whose content is a path pattern (compat-surface §3.3): `Write(src/**)` is a path rule too. */
const EDIT_RULE_NAMES: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const READ_RULE_NAMES: ReadonlySet<string> = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);

export type ToolFacts = {
  toolName: string;
  aliases: readonly string[];
  input: Record<string, unknown>;
  tier: 'read' | 'write' | 'exec';
  isMcp: boolean;
  access: ToolAccess;
  isReadOnly: boolean;
};

const readsFiles = (access: ToolAccess) => access === 'file-read' || access === 'file-glob';

/** The rule family that judges this tool's paths: `Edit` for editing tools, `Read` for reading ones. */
function pathFamilyOf(access: ToolAccess): 'Edit' | 'Read' | undefined {
  if (access === 'file-edit') return 'Edit';
  return readsFiles(access) ? 'Read' : undefined;
}

/**
 * The file or folder a call touches, absolute. Any tool's `file_path`, `notebook_path` or `path`
 * counts (a path outside the working directories asks, whatever the tool); a reading tool given
 * none works in the working directory, and a glob search searches its pattern's literal base
 * (`/etc/*` searches `/etc` whatever `path` says).
 */
export function targetPath(facts: ToolFacts, cwd: string, home: string): string | undefined {
  const { input, access } = facts;
  const raw =
    typeof input.file_path === 'string'
      ? input.file_path
      : typeof input.notebook_path === 'string'
        ? input.notebook_path
        : typeof input.path === 'string'
          ? input.path
          : readsFiles(access)
            ? cwd
            : undefined;
  if (raw === undefined) return undefined;
  const path = resolveUserPath(raw, cwd, home);
  if (access === 'file-glob' && typeof input.pattern === 'string')
    return splitPatternBase(input.pattern, path).base;
  return path;
}

/** `domain:example.com` covers example.com and its subdomains; `domain:*.example.com` only subdomains. */
export function domainMatches(content: string, host: string | undefined): boolean {
  const seen = host === undefined ? undefined : canonicalHost(host);
  if (!seen || !content.startsWith('domain:')) return false;
  const written = content.slice('domain:'.length).trim();
  const subdomainsOnly = written.startsWith('*.');
  const domain = canonicalHost(subdomainsOnly ? written.slice(2) : written);
  if (!domain) return false;
  if (subdomainsOnly) return seen.endsWith(`.${domain}`);
  return seen === domain || seen.endsWith(`.${domain}`);
}

const MCP_PREFIX = 'mcp__';

function nameMatches(ruleTool: string, facts: ToolFacts): boolean {
  if (ruleTool === ANY_TOOL) return true;
  const names = [facts.toolName, ...facts.aliases].map(canonicalToolName);
  if (names.includes(canonicalToolName(ruleTool))) return true;
  if (!ruleTool.startsWith(MCP_PREFIX) || !facts.toolName.startsWith(MCP_PREFIX)) return false;
  // `mcp__server` and `mcp__server__*` name every tool of that server.
  const server = ruleTool.endsWith('__*') ? ruleTool.slice(0, -3) : ruleTool;
  if (server.slice(MCP_PREFIX.length).includes('__')) return false;
  return facts.toolName.startsWith(`${server}__`);
}

/**
 * Whether `rule` applies to this call. Path rules are judged on the resolved target: a deny or
 * ask rule on any spelling of it (as written, a symlink on the way, the real path), an allow
 * rule only on where it really leads.
 */
export function ruleMatchesTool(
  rule: PermissionRule,
  facts: ToolFacts,
  target: SpelledPath | undefined,
  policy: PathPolicy,
): boolean {
  const ruleTool = canonicalToolName(rule.toolName);
  const content = rule.ruleContent;
  const pathFamily = ruleTool === pathFamilyOf(facts.access);
  if (!pathFamily && !nameMatches(ruleTool, facts)) return false;
  if (content === undefined) return true;
  if (pathFamily || EDIT_RULE_NAMES.has(ruleTool) || READ_RULE_NAMES.has(ruleTool)) {
    if (target === undefined) return false;
    return rule.behavior === 'allow'
      ? policy.coversRealPath(rule, target)
      : policy.coversAnySpelling(rule, target);
  }
  if (ruleTool === 'WebFetch') return domainMatches(content, hostOfUrl(facts.input.url));
  if (ruleTool === 'Agent') return facts.input.subagent_type === content;
  if (ruleTool === 'Skill') return facts.input.skill === content || facts.input.command === content;
  return false;
}

function suggestionFor(facts: ToolFacts, path: string | undefined, env: EvaluationEnv): string {
  if (facts.access === 'web') {
    const host = hostOfUrl(facts.input.url);
    return host ? `${facts.toolName}(domain:${host})` : facts.toolName;
  }
  const family = pathFamilyOf(facts.access);
  if (path !== undefined && family !== undefined) {
    const root = env.roots.projectRoot;
    // `/x` is project-relative in project, local and session rules; `//x` is absolute anywhere.
    return isWithin(path, root) && path !== root
      ? `${family}(/${relative(root, path).split('\\').join('/')})`
      : `${family}(/${path})`;
  }
  return facts.toolName;
}

const UNCHECKED_ARGUMENTS = (toolName: string) =>
  `${toolName}'s arguments are too many or too deep to check against the Read and Edit deny rules`;

/**
 * The Read or Edit deny rule that names a file an MCP call's arguments name (every one-line string
 * taken as a path, mcp-path-arguments.ts): a Read deny holds against any call, an Edit deny
 * against one that may write. A server-wide allow rule names no file, so it cannot outweigh them.
 */
function mcpDeniedPath(
  facts: ToolFacts,
  rules: readonly PermissionRule[],
  env: EvaluationEnv,
  policy: PathPolicy,
): { rule: PermissionRule; text: string } | { unchecked: PermissionRule } | undefined {
  const pathRules = rules.filter((rule) => {
    if (rule.behavior !== 'deny' || rule.ruleContent === undefined) return false;
    const name = canonicalToolName(rule.toolName);
    return READ_RULE_NAMES.has(name) || (!facts.isReadOnly && EDIT_RULE_NAMES.has(name));
  });
  const [firstRule] = pathRules;
  if (!firstRule) return undefined;
  const strings = pathLikeStrings(facts.input);
  if (strings === undefined) return { unchecked: firstRule };
  for (const text of new Set(strings)) {
    const spelled = policy.spell(resolveUserPath(text, env.roots.cwd, env.roots.home));
    const rule = pathRules.find((r) => policy.coversAnySpelling(r, spelled));
    if (rule) return { rule, text };
  }
  return undefined;
}

export function evaluateTool(facts: ToolFacts, env: EvaluationEnv): Evaluation {
  const result = emptyEvaluation();
  const rules = byPrecedence(env.rules);
  const policy = new PathPolicy(env, env.paths);
  const path = targetPath(facts, env.roots.cwd, env.roots.home);
  const target = path === undefined ? undefined : policy.spell(path);
  const first = (behavior: PermissionRule['behavior']) =>
    rules.find((r) => r.behavior === behavior && ruleMatchesTool(r, facts, target, policy));
  const deny = first('deny');
  if (deny)
    return {
      ...result,
      denied: {
        rule: deny,
        message: `Denied by rule ${describeRule(deny)}.`,
      },
    };
  const mcpDenied = facts.isMcp ? mcpDeniedPath(facts, rules, env, policy) : undefined;
  // Arguments too many to check against the deny rules: a deny rule may cover them, so it asks.
  if (mcpDenied && 'unchecked' in mcpDenied) {
    result.askRule = mcpDenied.unchecked;
    result.hardReasons.push(UNCHECKED_ARGUMENTS(facts.toolName));
    result.reasons.push(UNCHECKED_ARGUMENTS(facts.toolName));
  } else if (mcpDenied)
    return {
      ...result,
      denied: {
        rule: mcpDenied.rule,
        message: `Denied by rule ${describeRule(mcpDenied.rule)}: ${facts.toolName} names ${mcpDenied.text}.`,
      },
    };
  const ask = first('ask');
  if (ask) {
    result.askRule = ask;
    result.hardReasons.push('ask rule');
  }
  const inside = target === undefined || policy.inside(target);
  if (target && !inside) result.reasons.push(outsideReason(target.path, target, env.roots.cwd));
  const allow = first('allow');
  if (allow) {
    result.allowed = true;
    result.allowRule = allow;
  }
  // Network fetches and MCP calls leave the machine: they need a rule even when they only read.
  const plainRead = facts.tier === 'read' && facts.isReadOnly && !facts.isMcp && facts.access !== 'web';
  result.readOnly = plainRead && inside;
  result.onlyReads = facts.tier === 'read';
  if (result.readOnly) result.allowed = true;
  const edits = facts.access === 'file-edit';
  result.inScratchpad =
    target !== undefined &&
    (edits || readsFiles(facts.access)) &&
    !facts.isMcp &&
    policy.inScratchpad(target);
  result.editsInside = result.allowed || (edits && path !== undefined && inside);
  const guarded = edits && path !== undefined && protectedFileWrite(path, env, false, target?.resolved);
  if (guarded) {
    markProtected(result, [guarded]);
    // Absolute, so the rule means the same file in user settings and on the command line.
    result.suggestions.push(`Edit(/${path})`);
    return result;
  }
  // An MCP call that may write names its files in arguments of any name (mcp-path-arguments.ts).
  const mcpWrites =
    facts.isMcp && !facts.isReadOnly
      ? mcpProtectedWrites(facts.toolName, facts.input, env, (p) => env.paths.of(p))
      : [];
  if (mcpWrites.length > 0) {
    markProtected(
      result,
      mcpWrites.map((found) => found.write),
    );
    for (const found of mcpWrites) if (found.path) result.suggestions.push(`Edit(/${found.path})`);
  } else if (!result.allowed) result.suggestions.push(suggestionFor(facts, path, env));
  return result;
}
