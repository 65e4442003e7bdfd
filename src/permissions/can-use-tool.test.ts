/** The pipeline's order: hook, policy, rules, mode, prompt — and what "always allow" adds. */
import { describe, expect, it, vi } from 'vitest';
import { createCanUseTool } from './can-use-tool';
import { CORPUS_TOOLS, HOME, PROJECT } from './corpus-test-support';
import { parseRule } from './rule-string';
import { suggestRulesFor } from './suggest-rules';
import type {
  CanUseToolRequest,
  PermissionDecision,
  PermissionPrompt,
  PermissionRule,
  ToolPermissionContext,
} from './types';

const rule = (
  text: string,
  behavior: PermissionRule['behavior'],
  source: PermissionRule['source'] = 'userSettings',
) => parseRule(text, behavior, source) as PermissionRule;

function setup(context: Partial<ToolPermissionContext> = {}, prompt?: PermissionPrompt) {
  const onSessionRule = vi.fn();
  const ctx: ToolPermissionContext = { mode: 'default', rules: [], additionalDirectories: [], ...context };
  const options = {
    getContext: () => ctx,
    tools: CORPUS_TOOLS,
    projectRoot: PROJECT,
    home: HOME,
    onSessionRule,
  };
  const canUseTool = createCanUseTool(prompt ? { ...options, prompt } : options);
  return { canUseTool, onSessionRule };
}

const bash = (command: string, extra: Partial<CanUseToolRequest> = {}): CanUseToolRequest => ({
  toolName: 'Bash',
  input: { command },
  toolUseId: 'toolu_1',
  toolPermission: { behavior: 'passthrough' },
  isReadOnly: false,
  signal: new AbortController().signal,
  ...extra,
});

describe('createCanUseTool: level order', () => {
  it('a hook deny denies even what a rule allows', async () => {
    const { canUseTool } = setup({ rules: [rule('Bash(npm test)', 'allow')] });
    const hookDecision: PermissionDecision = { behavior: 'deny', message: 'hook says no' };
    expect(await canUseTool(bash('npm test', { hookDecision }))).toEqual(hookDecision);
  });

  it('a hook allow skips the prompt but not a deny rule', async () => {
    const prompt = vi.fn<PermissionPrompt>();
    const hookDecision: PermissionDecision = { behavior: 'allow' };
    const open = setup({}, prompt);
    expect((await open.canUseTool(bash('npm test', { hookDecision }))).behavior).toBe('allow');
    const denied = setup({ rules: [rule('Bash(npm:*)', 'deny')] }, prompt);
    const decision = await denied.canUseTool(bash('npm test', { hookDecision }));
    expect(decision).toMatchObject({ behavior: 'deny', decisionReason: { type: 'rule' } });
    expect(prompt).not.toHaveBeenCalled();
  });

  it('a hook ask forces a prompt even for a call rules allow', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'allow' }));
    const { canUseTool } = setup({ rules: [rule('Bash(npm test)', 'allow')] }, prompt);
    await canUseTool(bash('npm test', { hookDecision: { behavior: 'ask', message: 'check this' } }));
    expect(prompt).toHaveBeenCalledOnce();
  });

  it("honours the tool's own verdict: deny stays deny, ask forces a prompt", async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'allow' }));
    const { canUseTool } = setup({ mode: 'bypassPermissions' }, prompt);
    const denied = await canUseTool(
      bash('ls', { toolPermission: { behavior: 'deny', message: 'unsafe input' } }),
    );
    expect(denied).toMatchObject({ behavior: 'deny', message: 'unsafe input' });
    await canUseTool(bash('ls', { toolPermission: { behavior: 'ask', message: 'confirm' } }));
    expect(prompt.mock.calls[0]?.[0].message).toContain('confirm');
  });

  it('a policy deny beats a user allow, and names the policy', async () => {
    const { canUseTool } = setup({
      mode: 'bypassPermissions',
      rules: [rule('Bash(npm test)', 'allow'), rule('Bash(npm:*)', 'deny', 'policySettings')],
    });
    const decision = await canUseTool(bash('npm test'));
    expect(decision).toMatchObject({
      behavior: 'deny',
      decisionReason: { type: 'rule', rule: { source: 'policySettings' } },
    });
  });

  it('headless: denies with the exact rule to add', async () => {
    const { canUseTool } = setup();
    const decision = await canUseTool(bash('npm test'));
    expect(decision.behavior).toBe('deny');
    expect((decision as { message: string }).message).toContain(
      'add "Bash(npm test)" to permissions.allow in .yoke/settings.local.json or pass --allowedTools "Bash(npm test)"',
    );
  });

  it('warns about destructive commands in the prompt message', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'deny', message: 'no' }));
    const { canUseTool } = setup({}, prompt);
    await canUseTool(bash('git push --force origin main'));
    expect(prompt.mock.calls[0]?.[0].message).toMatch(/Warning: git push --force/);
  });

  it('plan mode denies a non-read-only call with a pointer to ExitPlanMode', async () => {
    const { canUseTool } = setup({ mode: 'plan' });
    const decision = await canUseTool(bash('npm install'));
    expect((decision as { message: string }).message).toContain('ExitPlanMode');
  });
});

describe('always allow', () => {
  it('adds session rules for exactly the segments shown, and nothing wider', async () => {
    const prompt = vi.fn<PermissionPrompt>(async (request) => ({
      behavior: 'allow',
      addRules: [...(request.suggestions ?? []), 'Bash'],
    }));
    const { canUseTool, onSessionRule } = setup({ rules: [rule('Bash(npm test)', 'allow')] }, prompt);
    await canUseTool(bash('npm test && npm run build'));
    expect(prompt.mock.calls[0]?.[0].suggestions).toEqual(['Bash(npm run build)']);
    expect(onSessionRule.mock.calls.map(([r]) => r)).toEqual([
      { toolName: 'Bash', ruleContent: 'npm run build', behavior: 'allow', source: 'session' },
    ]);
    prompt.mockClear();
    expect((await canUseTool(bash('npm run build'))).behavior).toBe('allow');
    expect((await canUseTool(bash('npm run build && npm run lint'))).behavior).toBe('allow');
    expect(prompt.mock.calls[0]?.[0].suggestions).toEqual(['Bash(npm run lint)']);
  });

  it('suggestRulesFor lists exact per-segment rules, skipping allowed and unsuggestable ones', async () => {
    const opts = { projectRoot: PROJECT, home: HOME };
    expect(await suggestRulesFor('npm run build', opts)).toEqual(['Bash(npm run build)']);
    expect(await suggestRulesFor('git status && npm test | tee out.log', opts)).toEqual([
      'Bash(npm test)',
      'Bash(tee out.log)',
    ]);
    expect(await suggestRulesFor('npm test > out.log', opts)).toEqual(['Bash(npm test > out.log)']);
    expect(await suggestRulesFor('LD_PRELOAD=x ls', opts)).toEqual([]);
    expect(await suggestRulesFor('echo "unterminated', opts)).toEqual([]);
    expect(
      await suggestRulesFor('npm test && npm run lint', {
        ...opts,
        rules: [rule('Bash(npm test)', 'allow')],
      }),
    ).toEqual(['Bash(npm run lint)']);
  });

  it('suggests path and domain rules for other tools', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'deny', message: 'no' }));
    const { canUseTool } = setup({}, prompt);
    const call = (toolName: string, input: Record<string, unknown>) =>
      canUseTool({ ...bash(''), toolName, input, isReadOnly: toolName !== 'Edit' });
    await call('Edit', { file_path: `${PROJECT}/src/a.ts` });
    await call('Read', { file_path: '/etc/hosts' });
    await call('WebFetch', { url: 'https://docs.example.com/x' });
    expect(prompt.mock.calls.map(([r]) => r.suggestions)).toEqual([
      ['Edit(/src/a.ts)'],
      ['Read(//etc/hosts)'],
      ['WebFetch(domain:docs.example.com)'],
    ]);
  });
});

describe("createCanUseTool: the call's own working directory", () => {
  // The session's cwd is where the last turn ended (sub/); in this turn an earlier call ran
  // `cd ..`, so the next call runs in the project root. `../x` from there is outside.
  const sessionInSub = (mode: ToolPermissionContext['mode']) =>
    createCanUseTool({
      getContext: () => ({ mode, rules: [], additionalDirectories: [] }),
      tools: CORPUS_TOOLS,
      projectRoot: PROJECT,
      home: HOME,
      cwd: `${PROJECT}/sub`,
    });
  const write = (file_path: string, cwd?: string): CanUseToolRequest => ({
    toolName: 'Write',
    input: { file_path, content: 'x' },
    toolUseId: 'toolu_w',
    toolPermission: { behavior: 'passthrough' },
    isReadOnly: false,
    signal: new AbortController().signal,
    ...(cwd === undefined ? {} : { cwd }),
  });

  it('judges a shell write against the directory the call runs in, not where the turn started', async () => {
    const canUseTool = sessionInSub('acceptEdits');
    const escaped = await canUseTool(bash('echo x > ../outside.txt', { cwd: PROJECT }));
    expect(escaped.behavior).toBe('deny');
    expect(escaped.behavior === 'deny' && escaped.message).toContain(
      'writes ../outside.txt (/home/u/outside.txt) outside the project',
    );
    expect((await canUseTool(bash('echo x > ../inside.txt', { cwd: `${PROJECT}/sub` }))).behavior).toBe(
      'allow',
    );
  });

  it('judges a relative Write the same way, and falls back to the session cwd without one', async () => {
    const canUseTool = sessionInSub('acceptEdits');
    expect((await canUseTool(write('../notes.txt', PROJECT))).behavior).toBe('deny');
    expect((await canUseTool(write('notes.txt', `${PROJECT}/sub/deeper`))).behavior).toBe('allow');
    expect((await canUseTool(write('../notes.txt'))).behavior).toBe('allow');
  });
});
