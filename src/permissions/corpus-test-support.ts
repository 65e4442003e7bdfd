/**
 * Runs one corpus case through the real decision (`createCanUseTool`) and reports allow, ask or
 * deny. A prompt that records being asked tells "ask" apart from "deny"; nothing touches disk,
 * the project lives at a fixed path where nothing exists (symlink and glob cases that need real
 * files pass their own project and `fs`).
 */
import type { Message } from '../session/messages';
import { type CreateCanUseToolOptions, createCanUseTool } from './can-use-tool';
import { emptyPathFs } from './real-paths';
import { parseRule } from './rule-string';
import type {
  CanUseToolRequest,
  PermissionMode,
  PermissionRule,
  PermissionTool,
  RuleBehavior,
  RuleSource,
  ToolAccess,
  ToolPermissionContext,
} from './types';

export const HOME = '/home/u';
export const PROJECT = '/home/u/proj';

export type Verdict = 'allow' | 'ask' | 'deny';

export type CorpusCase = {
  /** A Bash command, or a tool call. */
  cmd?: string;
  tool?: string;
  input?: Record<string, unknown>;
  allow?: string[];
  deny?: string[];
  ask?: string[];
  policyDeny?: string[];
  /** Source of the allow/deny/ask rules (default projectSettings). */
  source?: RuleSource;
  mode?: PermissionMode;
  dirs?: string[];
  expect: Verdict;
};

const tool = (
  name: string,
  tier: PermissionTool['tier'],
  access: ToolAccess,
  extra: Partial<PermissionTool> = {},
): PermissionTool => ({
  name,
  aliases: [],
  tier,
  isMcp: name.startsWith('mcp__'),
  access,
  toAutoClassifierInput: () => '',
  ...extra,
});

/** The tools as the decision sees them; tools/builtin/permission-facts.test.ts holds them to the real ones. */
export const CORPUS_TOOLS: PermissionTool[] = [
  tool('Bash', 'exec', 'shell', { toAutoClassifierInput: (input) => String(input.command) }),
  tool('Read', 'read', 'file-read'),
  tool('Glob', 'read', 'file-glob'),
  tool('Grep', 'read', 'file-read'),
  tool('TodoWrite', 'read', 'none'),
  tool('WebFetch', 'read', 'web'),
  tool('Edit', 'write', 'file-edit'),
  tool('Write', 'write', 'file-edit'),
  tool('MultiEdit', 'write', 'file-edit'),
  tool('NotebookEdit', 'write', 'file-edit'),
  tool('Agent', 'exec', 'none', { aliases: ['Task'] }),
  tool('TaskStop', 'exec', 'none', { aliases: ['KillShell'] }),
  tool('mcp__db__query', 'read', 'none'),
  tool('mcp__db__drop', 'write', 'none'),
  tool('mcp__dbx__query', 'read', 'none'),
  tool('mcp__fs__write_file', 'write', 'none'),
  tool('mcp__fs__read_text_file', 'read', 'none'),
];

export function corpusTool(name: string): PermissionTool {
  const found = CORPUS_TOOLS.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in CORPUS_TOOLS`);
  return found;
}

/** A call of a corpus tool as the tool runner would pass it: its own context, no hook, no opinion of the tool. */
export function corpusRequest(
  toolName: string,
  input: Record<string, unknown>,
  context: {
    permissionContext: ToolPermissionContext;
    cwd?: string;
    projectRoot?: string;
    messages?: readonly Message[];
  },
  extra: Partial<CanUseToolRequest> = {},
): CanUseToolRequest {
  const tool = corpusTool(toolName);
  const projectRoot = context.projectRoot ?? PROJECT;
  return {
    tool,
    input,
    toolUseId: 'toolu_1',
    context: {
      cwd: context.cwd ?? projectRoot,
      projectRoot,
      permissionContext: context.permissionContext,
      messages: context.messages ?? [],
    },
    toolPermission: { behavior: 'passthrough' },
    isReadOnly: tool.tier === 'read',
    isDestructive: false,
    signal: new AbortController().signal,
    ...extra,
  };
}

/**
 * Options for one case: the session's (`createCanUseTool`) and where the call runs — the fixed
 * project unless `projectRoot` is given, its root unless `cwd` is, and the case's own rules and
 * mode unless `permissionContext` replaces them.
 */
export type CaseOptions = CreateCanUseToolOptions & {
  projectRoot?: string;
  cwd?: string;
  permissionContext?: ToolPermissionContext;
};

function rules(
  texts: readonly string[] | undefined,
  behavior: RuleBehavior,
  source: RuleSource,
): PermissionRule[] {
  return (texts ?? []).map((text) => {
    const rule = parseRule(text, behavior, source);
    if (!rule) throw new Error(`bad rule in corpus: ${text}`);
    return rule;
  });
}

export function caseRules(c: CorpusCase): PermissionRule[] {
  const source = c.source ?? 'projectSettings';
  return [
    ...rules(c.policyDeny, 'deny', 'policySettings'),
    ...rules(c.deny, 'deny', source),
    ...rules(c.ask, 'ask', source),
    ...rules(c.allow, 'allow', source),
  ];
}

export async function runCase(c: CorpusCase, extra: CaseOptions = {}): Promise<Verdict> {
  return (await decideCase(c, extra)).verdict;
}

/** The verdict and, when the person was asked, the question they saw. */
export async function decideCase(
  c: CorpusCase,
  extra: CaseOptions = {},
): Promise<{ verdict: Verdict; question?: string }> {
  let question: string | undefined;
  const { projectRoot, cwd, permissionContext, ...session } = extra;
  const canUseTool = createCanUseTool({
    home: HOME,
    fs: emptyPathFs,
    prompt: async (request) => {
      question = request.message;
      return { behavior: 'deny', message: 'asked' };
    },
    ...session,
  });
  const caseContext: ToolPermissionContext = {
    mode: c.mode ?? 'default',
    rules: caseRules(c),
    additionalDirectories: c.dirs ?? [],
  };
  const decision = await canUseTool(
    corpusRequest(c.tool ?? 'Bash', c.input ?? { command: c.cmd }, {
      permissionContext: permissionContext ?? caseContext,
      ...(cwd === undefined ? {} : { cwd }),
      ...(projectRoot === undefined ? {} : { projectRoot }),
    }),
  );
  if (question !== undefined) return { verdict: 'ask', question };
  return { verdict: decision.behavior === 'allow' ? 'allow' : 'deny' };
}

export const caseLabel = (c: CorpusCase): string =>
  `${c.tool ? `${c.tool} ${JSON.stringify(c.input)}` : JSON.stringify(c.cmd)} [${c.mode ?? 'default'}] allow=${JSON.stringify(c.allow ?? [])} deny=${JSON.stringify([...(c.policyDeny ?? []), ...(c.deny ?? [])])} ask=${JSON.stringify(c.ask ?? [])} → ${c.expect}`;
