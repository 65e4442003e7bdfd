import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noopHooks } from '../hooks/types';
import { resolveModelAlias } from '../model/models';
import type { CanUseToolFn } from '../permissions/types';
import { SessionSkills } from '../skills/session-skills';
import { loadPromptCommands } from '../skills/sources';
import { bashTool } from '../tools/builtin/bash';
import { makeTestContext } from '../tools/builtin/shared/test-context';
import { createSessionCommands } from './builtin';
import { processUserInput, type UserInputDeps } from './process-user-input';
import { promptCommandOf } from './prompt-commands';
import { createTestHost, type TestHost } from './test-host';

const fixtures = join(import.meta.dirname, '../skills/fixtures/project');
let host: TestHost | undefined;
afterEach(async () => {
  await host?.cleanup();
  host = undefined;
});

/** The session's commands over the fixture project; `canUseTool` answers the `!` commands. */
async function setUp(canUseTool: CanUseToolFn = async () => ({ behavior: 'allow' })) {
  host = await createTestHost();
  const { specs } = await loadPromptCommands({
    projectRoot: fixtures,
    env: { HOME: '/nonexistent' },
    plugins: [],
  });
  const commands = createSessionCommands();
  commands.setPromptCommands(specs.map((spec) => promptCommandOf(spec)));
  const skills = new SessionSkills({
    specs,
    sessionId: 's-1',
    projectRoot: fixtures,
    trusted: false,
    listingBudgetTokens: 1000,
    pipeline: () => ({ canUseTool, hooks: noopHooks }),
  });
  const compacted: (string | undefined)[] = [];
  const testHost = host;
  const deps: UserInputDeps = {
    commands,
    skills,
    host: () => testHost,
    compact: async (instructions) => {
      compacted.push(instructions);
      return 'compacted';
    },
  };
  const context = makeTestContext({ cwd: fixtures, projectRoot: fixtures, tools: [bashTool] });
  const run = (line: string) =>
    processUserInput(line, { context, signal: new AbortController().signal }, deps);
  return { run, compacted };
}

describe('processUserInput', () => {
  it('ignores empty input and passes plain text and paths through as typed', async () => {
    const { run } = await setUp();
    expect(await run('   ')).toEqual({ kind: 'answered', text: '', isError: false });
    expect(await run('fix the bug')).toEqual({ kind: 'query', content: 'fix the bug' });
    expect(await run('/usr/bin/env is odd')).toEqual({ kind: 'query', content: '/usr/bin/env is odd' });
  });

  it('expands a prompt command with its model; an untrusted project grants no tools', async () => {
    const { run } = await setUp();
    const processed = await run('/commit fix: typo');
    expect(processed).toMatchObject({ kind: 'query', model: resolveModelAlias('haiku'), allowRules: [] });
    const blocks = processed.kind === 'query' ? processed.content : [];
    expect(JSON.stringify(blocks)).toContain('<command-args>fix: typo</command-args>');
    expect(JSON.stringify(blocks)).toContain('use it: fix: typo');
  });

  it('fails the command, running nothing, when a ! command is refused', async () => {
    const { run } = await setUp(async () => ({ behavior: 'deny', message: 'Bash needs approval.' }));
    expect(await run('/commit')).toEqual({
      kind: 'answered',
      isError: true,
      text: '/commit was not run: its command `git status --short` was refused: Bash needs approval.',
    });
  });

  it('runs a headless local command, carries out /compact, and refuses the ones that need the UI', async () => {
    const { run, compacted } = await setUp();
    expect(await run('/cost')).toMatchObject({
      kind: 'answered',
      isError: false,
      text: expect.stringContaining('Total cost:'),
    });
    expect(await run('/compact keep the plan')).toEqual({
      kind: 'answered',
      text: 'compacted',
      isError: false,
    });
    expect(compacted).toEqual(['keep the plan']);
    for (const name of ['clear', 'memory', 'resume']) {
      expect(await run(`/${name}`)).toEqual({
        kind: 'answered',
        isError: true,
        text: `/${name} needs the interactive UI: run \`yoke\` without -p to use it.`,
      });
    }
    expect(await run('/doctor')).toEqual({
      kind: 'answered',
      isError: true,
      text: '/doctor needs the interactive UI: run `yoke` without -p to use it (or `yoke doctor` from the shell).',
    });
  });

  it('names the nearest commands for a typo', async () => {
    const { run } = await setUp();
    expect(await run('/comit')).toMatchObject({
      kind: 'answered',
      isError: true,
      text: expect.stringContaining('/commit'),
    });
  });
});
