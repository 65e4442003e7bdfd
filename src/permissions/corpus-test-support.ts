/**
 * Runs one corpus case through the real pipeline (`createCanUseTool`) and reports allow, ask or
 * deny. A prompt that records being asked tells "ask" apart from "deny"; nothing touches disk,
 * the project lives at a fixed path where nothing exists (symlink and glob cases that need real
 * files pass their own project and `fs`).
 */
import { type CreateCanUseToolOptions, createCanUseTool, type PermissionTool } from './can-use-tool';
import { emptyPathFs } from './real-paths';
import { parseRule } from './rule-string';
import type { PermissionMode, PermissionRule, RuleBehavior, RuleSource } from './types';

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
  extra: Partial<PermissionTool> = {},
): PermissionTool => ({
  name,
  aliases: [],
  tier,
  isMcp: name.startsWith('mcp__'),
  toAutoClassifierInput: () => '',
  ...extra,
});

export const CORPUS_TOOLS: PermissionTool[] = [
  tool('Bash', 'exec'),
  tool('Read', 'read'),
  tool('Glob', 'read'),
  tool('Grep', 'read'),
  tool('TodoWrite', 'read'),
  tool('WebFetch', 'read'),
  tool('Edit', 'write'),
  tool('Write', 'write'),
  tool('MultiEdit', 'write'),
  tool('NotebookEdit', 'write'),
  tool('Agent', 'exec', { aliases: ['Task'] }),
  tool('TaskStop', 'exec', { aliases: ['KillShell'] }),
  tool('mcp__db__query', 'read'),
  tool('mcp__db__drop', 'write'),
  tool('mcp__dbx__query', 'read'),
];

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

export async function runCase(c: CorpusCase, extra: Partial<CreateCanUseToolOptions> = {}): Promise<Verdict> {
  return (await decideCase(c, extra)).verdict;
}

/** The verdict and, when the person was asked, the question they saw. */
export async function decideCase(
  c: CorpusCase,
  extra: Partial<CreateCanUseToolOptions> = {},
): Promise<{ verdict: Verdict; question?: string }> {
  let question: string | undefined;
  const canUseTool = createCanUseTool({
    getContext: () => ({
      mode: c.mode ?? 'default',
      rules: caseRules(c),
      additionalDirectories: c.dirs ?? [],
    }),
    tools: CORPUS_TOOLS,
    projectRoot: PROJECT,
    home: HOME,
    fs: emptyPathFs,
    prompt: async (request) => {
      question = request.message;
      return { behavior: 'deny', message: 'asked' };
    },
    ...extra,
  });
  const toolName = c.tool ?? 'Bash';
  const decision = await canUseTool({
    toolName,
    input: c.input ?? { command: c.cmd },
    toolUseId: 'toolu_1',
    toolPermission: { behavior: 'passthrough' },
    isReadOnly: CORPUS_TOOLS.find((t) => t.name === toolName)?.tier === 'read',
    signal: new AbortController().signal,
  });
  if (question !== undefined) return { verdict: 'ask', question };
  return { verdict: decision.behavior === 'allow' ? 'allow' : 'deny' };
}

export const caseLabel = (c: CorpusCase): string =>
  `${c.tool ? `${c.tool} ${JSON.stringify(c.input)}` : JSON.stringify(c.cmd)} [${c.mode ?? 'default'}] allow=${JSON.stringify(c.allow ?? [])} deny=${JSON.stringify([...(c.policyDeny ?? []), ...(c.deny ?? [])])} ask=${JSON.stringify(c.ask ?? [])} → ${c.expect}`;
