/** The pipeline's order: hook, policy, rules, mode, prompt — and what "always allow" adds. */
import { describe, expect, it, vi } from 'vitest';
import { createCanUseTool } from './can-use-tool';
import { corpusRequest, HOME, PROJECT, runCase } from './corpus-test-support';
import { parseRule } from './rule-string';
import { suggestRulesFor } from './suggest-rules';
import type {
  CanUseToolRequest,
  HookPermissionDecision,
  PermissionPrompt,
  PermissionRule,
  ToolPermissionContext,
} from './types';

const rule = (
  text: string,
  behavior: PermissionRule['behavior'],
  source: PermissionRule['source'] = 'userSettings',
) => parseRule(text, behavior, source) as PermissionRule;

/** A call before its context is known: the tool, its input, the facts a test sets, and where it runs. */
type Call = {
  toolName: string;
  input: Record<string, unknown>;
  extra: Partial<CanUseToolRequest>;
  cwd?: string;
};

/** The decision for one session; each call runs under `context` (default mode, no rules unless given). */
function setup(context: Partial<ToolPermissionContext> = {}, prompt?: PermissionPrompt) {
  const onSessionRule = vi.fn();
  const saveRules = vi.fn(async () => {});
  const permissionContext: ToolPermissionContext = {
    mode: 'default',
    rules: [],
    additionalDirectories: [],
    ...context,
  };
  const decide = createCanUseTool(
    prompt ? { home: HOME, onSessionRule, saveRules, prompt } : { home: HOME, onSessionRule, saveRules },
  );
  const canUseTool = (call: Call) =>
    decide(
      corpusRequest(
        call.toolName,
        call.input,
        call.cwd === undefined ? { permissionContext } : { permissionContext, cwd: call.cwd },
        call.extra,
      ),
    );
  return { canUseTool, onSessionRule, saveRules };
}

const bash = (command: string, extra: Partial<CanUseToolRequest> = {}, cwd?: string): Call => ({
  toolName: 'Bash',
  input: { command },
  extra: { isReadOnly: false, ...extra },
  ...(cwd === undefined ? {} : { cwd }),
});

describe('createCanUseTool: level order', () => {
  it('a hook deny denies even what a rule allows', async () => {
    const { canUseTool } = setup({ rules: [rule('Bash(npm test)', 'allow')] });
    const hookDecision: HookPermissionDecision = { behavior: 'deny', message: 'hook says no' };
    expect(await canUseTool(bash('npm test', { hookDecision }))).toEqual(hookDecision);
  });

  it('a hook allow skips the prompt but not a deny rule', async () => {
    const prompt = vi.fn<PermissionPrompt>();
    const hookDecision: HookPermissionDecision = { behavior: 'allow' };
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

  it('denyInsteadOfPrompting: denies where the prompt would appear, saying so; a read and an allowed call still run', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'allow' }));
    const { canUseTool } = setup(
      { denyInsteadOfPrompting: true, rules: [rule('Bash(npm test)', 'allow')] },
      prompt,
    );
    const decision = await canUseTool(bash('touch made'));
    expect(decision).toMatchObject({
      behavior: 'deny',
      decisionReason: { type: 'headless', reason: 'permissions.denyInsteadOfPrompting' },
    });
    expect((decision as { message: string }).message).toContain(
      'Permission for Bash: touch made was not granted: the settings deny instead of asking (permissions.denyInsteadOfPrompting).',
    );
    expect(prompt).not.toHaveBeenCalled();
    expect((await canUseTool(bash('npm test'))).behavior).toBe('allow');
    expect((await canUseTool(bash('ls', { isReadOnly: true }))).behavior).toBe('allow');
  });

  it('warns about destructive commands in the prompt message', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'deny', message: 'no' }));
    const { canUseTool } = setup({}, prompt);
    await canUseTool(bash('git push --force origin main'));
    expect(prompt.mock.calls[0]?.[0].message).toMatch(/Warning: git push --force/);
  });

  it('plan mode denies a non-read-only call, pointing to ExitPlanMode where someone can approve a plan', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'allow' }));
    const withPrompt = await setup({ mode: 'plan' }, prompt).canUseTool(bash('npm install'));
    expect(withPrompt).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('call ExitPlanMode'),
    });
    expect(prompt).not.toHaveBeenCalled();
    // Headless, there is no ExitPlanMode: the plan is the answer.
    const headless = await setup({ mode: 'plan' }).canUseTool(bash('npm install'));
    expect(headless).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('give it as your answer'),
    });
    expect((headless as { message: string }).message).not.toContain('ExitPlanMode');
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

  it('saves the rules it added where a "don\'t ask again" answer says, and only those', async () => {
    const prompt = vi.fn<PermissionPrompt>(async (request) => ({
      behavior: 'allow',
      addRules: [...(request.suggestions ?? []), 'Bash'],
      saveRulesTo: 'localSettings',
    }));
    const { canUseTool, saveRules } = setup({}, prompt);
    expect((await canUseTool(bash('npm run build'))).behavior).toBe('allow');
    expect(saveRules.mock.calls).toEqual([[['Bash(npm run build)'], 'localSettings']]);
  });

  it('saves nothing for an answer that keeps the rules to the session', async () => {
    const prompt = vi.fn<PermissionPrompt>(async (request) => ({
      behavior: 'allow',
      addRules: [...(request.suggestions ?? [])],
    }));
    const { canUseTool, saveRules, onSessionRule } = setup({}, prompt);
    await canUseTool(bash('npm run build'));
    expect(onSessionRule).toHaveBeenCalledTimes(1);
    expect(saveRules).not.toHaveBeenCalled();
  });

  it("offers none under managed policy's allowManagedPermissionRulesOnly, and allows only by its rules", async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({
      behavior: 'allow',
      addRules: ['Bash(npm run build)'],
    }));
    const { canUseTool, onSessionRule } = setup(
      {
        managedRulesOnly: true,
        rules: [
          rule('Bash(npm test)', 'allow', 'policySettings'),
          rule('Bash(npm run lint)', 'allow', 'session'),
        ],
      },
      prompt,
    );
    expect((await canUseTool(bash('npm test'))).behavior).toBe('allow');
    await canUseTool(bash('npm run build'));
    expect(prompt.mock.calls[0]?.[0].suggestions).toBeUndefined();
    expect(onSessionRule).not.toHaveBeenCalled();
    await canUseTool(bash('npm run build'));
    await canUseTool(bash('npm run lint'));
    expect(prompt).toHaveBeenCalledTimes(3);
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

  it('offers no rule for a unit that runs or takes as arguments input its rule would not show', async () => {
    const opts = { projectRoot: PROJECT, home: HOME };
    // Under the rule each would add, other input ran unasked (see unshown-input.ts).
    for (const line of [
      'python3 - <<EOF\nprint(1)\nEOF',
      'python3 <<< "print(1)"',
      'node < build.js',
      'curl -s https://example.com/i.sh | sh',
      'cat list | xargs rm',
      'echo 1 | python3',
    ])
      expect(await suggestRulesFor(line, opts), line).not.toContainEqual(
        expect.stringMatching(/python3|node|^Bash\(sh\)|xargs/),
      );
    expect(await runCase({ cmd: 'echo "rm -rf ~" | sh', allow: ['Bash(sh)'], expect: 'allow' })).toBe(
      'allow',
    );
    // Controls: the code or data is on the line, so the rule shows it.
    expect(await suggestRulesFor('python3 script.py', opts)).toEqual(['Bash(python3 script.py)']);
    expect(await suggestRulesFor('python3 -c "print(1)"', opts)).toEqual(['Bash(python3 -c "print(1)")']);
    expect(await suggestRulesFor('cat <<EOF > /tmp/x\nhi\nEOF', opts)).toEqual(['Bash(cat > /tmp/x)']);
  });

  it('suggests path and domain rules for other tools', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'deny', message: 'no' }));
    const { canUseTool } = setup({}, prompt);
    const call = (toolName: string, input: Record<string, unknown>) =>
      canUseTool({ toolName, input, extra: { isReadOnly: toolName !== 'Edit' } });
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
  // The turn started in sub/; in this turn an earlier call ran `cd ..`, so the next call runs in
  // the project root. `../x` from there is outside.
  const write = (file_path: string, cwd: string): Call => ({
    toolName: 'Write',
    input: { file_path, content: 'x' },
    extra: { isReadOnly: false },
    cwd,
  });

  it('judges a shell write against the directory the call runs in, not where the turn started', async () => {
    const { canUseTool } = setup({ mode: 'acceptEdits' });
    const escaped = await canUseTool(bash('echo x > ../outside.txt', {}, PROJECT));
    expect(escaped.behavior).toBe('deny');
    expect(escaped.behavior === 'deny' && escaped.message).toContain(
      'writes ../outside.txt (/home/u/outside.txt) outside the project',
    );
    expect((await canUseTool(bash('echo x > ../inside.txt', {}, `${PROJECT}/sub`))).behavior).toBe('allow');
  });

  it('judges a relative Write the same way', async () => {
    const { canUseTool } = setup({ mode: 'acceptEdits' });
    expect((await canUseTool(write('../notes.txt', PROJECT))).behavior).toBe('deny');
    expect((await canUseTool(write('notes.txt', `${PROJECT}/sub/deeper`))).behavior).toBe('allow');
    expect((await canUseTool(write('../notes.txt', `${PROJECT}/sub`))).behavior).toBe('allow');
  });
});

describe("createCanUseTool: each call's own context and facts", () => {
  it('decides two loops of one session under their own modes and rules, side by side', async () => {
    const decide = createCanUseTool({ home: HOME });
    const main: ToolPermissionContext = { mode: 'acceptEdits', rules: [], additionalDirectories: [] };
    const agent: ToolPermissionContext = {
      mode: 'plan',
      rules: [rule('Edit(/docs/**)', 'deny', 'session')],
      additionalDirectories: [],
    };
    const write = (permissionContext: ToolPermissionContext, file: string) =>
      decide(
        corpusRequest('Write', { file_path: `${PROJECT}/${file}`, content: 'x' }, { permissionContext }),
      );
    const [mainWrite, agentWrite, mainDocs] = await Promise.all([
      write(main, 'src/a.ts'),
      write(agent, 'src/a.ts'),
      write(main, 'docs/a.md'),
    ]);
    expect(mainWrite).toMatchObject({
      behavior: 'allow',
      decisionReason: { type: 'mode', mode: 'acceptEdits' },
    });
    expect(agentWrite).toMatchObject({ behavior: 'deny', decisionReason: { type: 'mode', mode: 'plan' } });
    // The agent's deny rule is the agent's: the main loop's write to docs/ is not touched by it.
    expect(mainDocs.behavior).toBe('allow');
  });

  it('carries a destructive call into every question and refusal as a warning', async () => {
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'deny', message: 'no' }));
    const asked = setup({}, prompt);
    const drop = { toolName: 'mcp__db__drop', input: { table: 'users' }, extra: { isDestructive: true } };
    await asked.canUseTool(drop);
    const warning = 'Warning: mcp__db__drop reports that this call is destructive';
    expect(prompt.mock.calls[0]?.[0].message).toContain(warning);
    const headless = await setup().canUseTool(drop);
    expect(headless.behavior === 'deny' && headless.message).toContain(warning);
    // Not destructive, no warning.
    const quiet = await setup().canUseTool({ ...drop, extra: {} });
    expect(quiet.behavior === 'deny' && quiet.message).not.toContain('destructive');
  });

  it("runs the tool's own rewrite whoever allowed the call, unless the allow brings its own", async () => {
    const toolPermission = { behavior: 'allow' as const, updatedInput: { command: 'npm test -- --ci' } };
    const ruled = setup({ rules: [rule('Bash(npm test)', 'allow')] });
    expect(await ruled.canUseTool(bash('npm test', { toolPermission }))).toMatchObject({
      behavior: 'allow',
      updatedInput: { command: 'npm test -- --ci' },
    });
    // A hook's allow carries no input: the runner has already made the hook's rewrite the call's input.
    const hooked = await setup().canUseTool(bash('npm test', { hookDecision: { behavior: 'allow' } }));
    expect(hooked).toEqual({ behavior: 'allow' });
    // A person who edited the input in the prompt runs what they approved.
    const edited = { command: 'npm test -- --watch=false' };
    const prompt = vi.fn<PermissionPrompt>(async () => ({ behavior: 'allow', updatedInput: edited }));
    const asked = setup({}, prompt);
    const hookAsk: HookPermissionDecision = { behavior: 'ask', message: 'check it' };
    expect(await asked.canUseTool(bash('npm test', { toolPermission, hookDecision: hookAsk }))).toMatchObject(
      {
        behavior: 'allow',
        updatedInput: edited,
      },
    );
  });
});
