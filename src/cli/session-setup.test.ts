import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CostTracker } from '../model/cost';
import { createSideCallClient } from '../model/side-call';
import type { CanUseToolFn, PermissionPrompt } from '../permissions/types';
import { FakeProvider } from '../testing/fake-provider';
import { createBuiltinTools } from '../tools/builtin';
import { parseCliArgs } from './parse-args';
import { apiKeySource, thinkingConfig } from './session-engine-config';
import { createPermissionSetup, type PermissionSetup } from './session-permissions';
import { createSessionEngine } from './session-setup';
import { selectSessionTools } from './session-tools';

const options = (argv: string[]) => parseCliArgs(['-p', 'x', ...argv]).options;

function permissionSetup(argv: string[], permissionPrompt?: PermissionPrompt) {
  return createPermissionSetup({
    options: options(argv),
    settingsSources: [],
    projectTrusted: false,
    cwd: '/w',
    env: {},
    permissionPrompt,
    // No call here reaches the classifier: a side call would fail on the empty script.
    sideCalls: createSideCallClient({
      provider: new FakeProvider([]),
      fastModel: () => 'claude-haiku-5-5',
      usage: new CostTracker(),
    }),
  });
}

describe('thinkingConfig', () => {
  it('maps --max-thinking-tokens and --thinking', () => {
    expect(thinkingConfig({})).toBeUndefined();
    expect(thinkingConfig({ maxThinkingTokens: 4000 })).toEqual({ type: 'enabled', budgetTokens: 4000 });
    expect(thinkingConfig({ maxThinkingTokens: 0 })).toEqual({ type: 'disabled' });
    expect(thinkingConfig({ thinking: 'adaptive' })).toEqual({ type: 'adaptive' });
    expect(thinkingConfig({ thinking: 'enabled' })).toEqual({ type: 'adaptive' });
    expect(thinkingConfig({ thinking: 'disabled', maxThinkingTokens: 4000 })).toEqual({ type: 'disabled' });
  });
});

describe('apiKeySource', () => {
  it('names the variable the key came from', () => {
    expect(apiKeySource({ providerName: 'anthropic' }, { ANTHROPIC_API_KEY: 'k' })).toBe('ANTHROPIC_API_KEY');
    expect(apiKeySource({ providerName: 'anthropic' }, { ANTHROPIC_AUTH_TOKEN: 't' })).toBe(
      'ANTHROPIC_AUTH_TOKEN',
    );
    expect(apiKeySource({ providerName: 'openai' }, {})).toBe('none');
  });
});

describe('selectSessionTools', () => {
  const builtins = createBuiltinTools();

  const names = (argv: string[]) => {
    const setup = permissionSetup(argv);
    const selection = selectSessionTools(setup.permissionContext, options(argv).tools, builtins);
    return { names: selection.tools.map((t) => t.name), warnings: selection.warnings };
  };

  it('offers every built-in by default, sorted', () => {
    const { names: all } = names([]);
    expect(all).toContain('Bash');
    expect(all).toEqual([...all].sort());
  });

  it('restricts the pool to --tools, resolving legacy aliases', () => {
    expect(names(['--tools', 'Read,KillShell'])).toEqual({ names: ['Read', 'TaskStop'], warnings: [] });
    expect(names(['--tools=']).names).toEqual([]);
  });

  it('reports unknown --tools names without failing', () => {
    expect(names(['--tools', 'Read,Teleport'])).toEqual({
      names: ['Read'],
      warnings: ['--tools: no built-in tool named "Teleport"'],
    });
  });

  it('removes a tool named by a blanket --disallowedTools rule, but not for a scoped rule', () => {
    const { names: pool } = names(['--disallowedTools', 'Bash,Edit(src/**)']);
    expect(pool).not.toContain('Bash');
    expect(pool).toContain('Edit');
  });

  it('hides write and exec tools in plan mode', () => {
    const { names: pool } = names(['--permission-mode', 'plan']);
    expect(pool).toContain('Read');
    expect(pool).not.toContain('Write');
  });

  it('leaves out Grep and Glob where ripgrep cannot be found, with one reason for both', () => {
    const setup = permissionSetup([]);
    const noRipgrep = { USE_BUILTIN_RIPGREP: '0', PATH: mkdtempSync(join(tmpdir(), 'yoke-no-rg-')) };
    const selection = selectSessionTools(setup.permissionContext, undefined, builtins, [], noRipgrep);
    const offered = selection.tools.map((t) => t.name);
    expect(offered).not.toContain('Grep');
    expect(offered).not.toContain('Glob');
    expect(offered).toContain('Read');
    const ripgrep = selection.availability.filter((p) => p.reason.includes('ripgrep'));
    expect(ripgrep).toEqual([
      {
        status: 'unavailable',
        tools: ['Glob', 'Grep'],
        reason: expect.stringContaining('USE_BUILTIN_RIPGREP=0'),
      },
    ]);
  });

  it('checks only the tools the session would offer', () => {
    const setup = permissionSetup([]);
    const noRipgrep = { USE_BUILTIN_RIPGREP: '0', PATH: mkdtempSync(join(tmpdir(), 'yoke-no-rg-')) };
    const selection = selectSessionTools(setup.permissionContext, ['Read', 'Bash'], builtins, [], noRipgrep);
    expect(selection.tools.map((t) => t.name)).toEqual(['Bash', 'Read']);
    expect(selection.availability).toEqual([]);
  });
});

describe('createPermissionSetup', () => {
  /** A call of the real built-in tool, in the session's project under the setup's rules and mode. */
  const call = (setup: PermissionSetup, toolName: string): Parameters<CanUseToolFn>[0] => {
    const tool = createBuiltinTools().find((t) => t.name === toolName);
    if (!tool) throw new Error(`no built-in ${toolName}`);
    return {
      tool,
      input: { file_path: 'a' },
      toolUseId: 'toolu_1',
      context: { cwd: '/w', projectRoot: '/w', permissionContext: setup.permissionContext, messages: [] },
      toolPermission: { behavior: 'passthrough' },
      isReadOnly: false,
      isDestructive: false,
      signal: new AbortController().signal,
    };
  };

  it('builds the context from mode, rules and --add-dir', () => {
    const setup = permissionSetup([
      '--dangerously-skip-permissions',
      '--allowedTools',
      'Read',
      '--add-dir',
      'lib',
    ]);
    expect(setup.permissionContext).toEqual({
      mode: 'bypassPermissions',
      rules: [{ toolName: 'Read', behavior: 'allow', source: 'cliArg' }],
      additionalDirectories: ['/w/lib'],
    });
  });

  it('denies a write headlessly with an actionable message', async () => {
    const setup = permissionSetup([]);
    const decision = await setup.canUseTool(call(setup, 'Write'));
    expect(decision.behavior).toBe('deny');
    expect(decision.behavior === 'deny' && decision.message).toContain('permissions.allow');
  });

  it('asks the permission prompt where a headless run would refuse', async () => {
    const asked: string[] = [];
    const prompt: PermissionPrompt = async ({ toolName }) => {
      asked.push(toolName);
      return { behavior: 'allow' };
    };
    const setup = permissionSetup([], prompt);
    expect((await setup.canUseTool(call(setup, 'Write'))).behavior).toBe('allow');
    expect(asked).toEqual(['Write']);
  });
});

describe('createSessionEngine', () => {
  it('refuses flags whose feature is not available yet', async () => {
    await expect(createSessionEngine(options(['--session-mirror']), {}, '/w')).rejects.toThrow(
      'not available yet: transcript mirroring (--session-mirror)',
    );
  });

  it('refuses an --add-dir that is not an existing folder, naming it', async () => {
    const base = mkdtempSync(join(tmpdir(), 'yoke-add-dir-'));
    writeFileSync(join(base, 'file.txt'), '');
    await expect(createSessionEngine(options(['--add-dir', 'nope']), {}, base)).rejects.toThrow(
      `--add-dir nope: no such folder (${join(base, 'nope')}).`,
    );
    await expect(createSessionEngine(options(['--add-dir', 'file.txt']), {}, base)).rejects.toThrow(
      `--add-dir file.txt: ${join(base, 'file.txt')} is a file, not a folder.`,
    );
  });

  it('builds an engine with the chosen model and mode', async () => {
    const setup = await createSessionEngine(
      options(['--model', 'haiku', '--permission-mode', 'acceptEdits', '--tools', 'Read']),
      { ANTHROPIC_API_KEY: 'k', YOKE_HOME: mkdtempSync(join(tmpdir(), 'yoke-setup-')) },
      '/w',
    );
    expect(setup.engine.permissionMode).toBe('acceptEdits');
    expect(setup.engine.currentModel).toBe(setup.selection.model);
    expect(setup.tools.map((t) => t.name)).toEqual(['Read']);
  });
});
