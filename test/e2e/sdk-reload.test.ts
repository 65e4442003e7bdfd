/**
 * `reloadSkills()` and `reloadPlugins()` through the unmodified Agent SDK against the built CLI:
 * a command file written while the session runs, and a plugin folder added by path, are found
 * again on disk, listed in the answer, and usable from the next turn.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { query, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTree } from '../../src/plugins/test-support';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { sdkEnv, tempProject, YOKE_BIN } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A prompt stream the test feeds one user message at a time. */
function promptQueue() {
  const waiting: Array<(message: IteratorResult<SDKUserMessage>) => void> = [];
  const ready: IteratorResult<SDKUserMessage>[] = [];
  const put = (item: IteratorResult<SDKUserMessage>) => {
    const take = waiting.shift();
    if (take) take(item);
    else ready.push(item);
  };
  return {
    say: (text: string) =>
      put({
        done: false,
        value: {
          type: 'user',
          message: { role: 'user', content: text },
          parent_tool_use_id: null,
          session_id: '',
        },
      }),
    end: () => put({ done: true, value: undefined }),
    stream: {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          new Promise<IteratorResult<SDKUserMessage>>((resolve) => {
            const item = ready.shift();
            if (item) resolve(item);
            else waiting.push(resolve);
          }),
      }),
    },
  };
}

const say = (text: string) => ({ reply: { content: [{ type: 'text' as const, text }] } });
const call = (name: string, input: Record<string, unknown>) => ({
  reply: { content: [{ type: 'tool_use' as const, id: `t-${name}`, name, input }] },
});

async function session(
  scenario: ScenarioInput = [say('first'), say('second')],
  onToolCall?: (name: string) => void,
  dir?: string,
) {
  server = await startMockServer({ scenario });
  const cwd = dir ?? (await tempProject());
  const prompts = promptQueue();
  const q = query({
    prompt: prompts.stream,
    options: {
      pathToClaudeCodeExecutable: YOKE_BIN,
      cwd,
      env: sdkEnv(server.url, await tempProject('yoke-home-')),
      allowedTools: ['Bash(cat:*)'],
    },
  });
  // Each turn's `result` settles the wait of the prompt that started it.
  const pending: Array<(result: SDKMessage) => void> = [];
  /** Each turn's `system/init` slash commands, in order. */
  const slashCommands: string[][] = [];
  const drained = (async () => {
    for await (const message of q) {
      if (message.type === 'result') pending.shift()?.(message);
      if (message.type === 'system' && message.subtype === 'init') slashCommands.push(message.slash_commands);
      if (message.type !== 'assistant' || message.parent_tool_use_id !== null) continue;
      for (const block of message.message.content) if (block.type === 'tool_use') onToolCall?.(block.name);
    }
  })();
  /** Sends a prompt and waits for its result. */
  const turn = (text: string) =>
    new Promise<SDKMessage>((resolve) => {
      pending.push(resolve);
      prompts.say(text);
    });
  const requestText = (index: number) => JSON.stringify(server?.requests[index]?.body ?? 'no request');
  const finish = () => {
    prompts.end();
    return drained;
  };
  return { q, cwd, turn, requestText, finish, slashCommands };
}

describe('reloading from disk through the Agent SDK', () => {
  it('reloadSkills() finds a command written after start; the next turn runs it', async () => {
    const s = await session();
    await s.turn('hello');
    expect((await s.q.supportedCommands()).map((c) => c.name)).not.toContain('ship');
    await mkdir(join(s.cwd, '.claude', 'commands'), { recursive: true });
    await writeFile(
      join(s.cwd, '.claude', 'commands', 'ship.md'),
      '---\ndescription: Ship the release\nargument-hint: <version>\n---\nSHIP-BODY: release $ARGUMENTS now.\n',
    );
    const reloaded = await s.q.reloadSkills();
    expect(reloaded.skills).toContainEqual({
      name: 'ship',
      description: 'Ship the release (project)',
      argumentHint: '<version>',
    });
    await s.turn('/ship 2.0');
    await s.finish();
    expect(s.requestText(1)).toContain('SHIP-BODY: release 2.0 now.');
    // Each turn's system/init lists the commands of that turn.
    expect(s.slashCommands.map((names) => names.includes('ship'))).toEqual([false, true]);
  });

  it('reloadPlugins() adds a plugin folder: its commands and agents are listed and its command runs', async () => {
    const s = await session();
    await s.turn('hello');
    const plugin = await tempProject('yoke-plugin-');
    await writeTree(plugin, {
      '.claude-plugin/plugin.json': { name: 'kit', version: '1.2.0' },
      'commands/greet.md': '---\ndescription: Greet someone\n---\nGREET-BODY: say hi to $ARGUMENTS.\n',
      'agents/helper.md': '---\nname: helper\ndescription: Helps out.\n---\nYou help.\n',
    });
    const reloaded = await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: plugin }] });
    expect(reloaded.plugins).toEqual([
      expect.objectContaining({ name: 'kit', path: plugin, version: '1.2.0' }),
    ]);
    expect(reloaded.commands.map((c) => c.name)).toEqual(expect.arrayContaining(['compact', 'kit:greet']));
    expect(reloaded.agents.map((a) => a.name)).toContain('kit:helper');
    expect(reloaded.error_count).toBe(0);
    expect(reloaded.mcpServers).toEqual([]);
    await s.turn('/kit:greet Ada');
    await s.finish();
    expect(s.requestText(1)).toContain('GREET-BODY: say hi to Ada.');
    // The Agent tool offers the plugin's agent from the turn after the reload.
    expect(s.requestText(1)).toContain('kit:helper');
  });

  it('a reload while a turn runs takes effect at the next turn, not inside the running one', async () => {
    const cwd = await tempProject();
    // The turn's Bash call reads a FIFO, so the turn is still running until the test writes to it.
    const fifo = join(cwd, 'gate');
    execFileSync('mkfifo', [fifo]);
    let bashStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      bashStarted = resolve;
    });
    const s = await session(
      [
        call('Bash', { command: `cat ${fifo}` }),
        call('Skill', { skill: 'ship', args: '1.0' }),
        say('first done'),
        say('second'),
      ],
      (name) => name === 'Bash' && bashStarted(),
      cwd,
    );
    const first = s.turn('hello');
    await started;
    await mkdir(join(cwd, '.claude', 'commands'), { recursive: true });
    await writeFile(
      join(cwd, '.claude', 'commands', 'ship.md'),
      '---\ndescription: Ship\n---\nSHIP-BODY $ARGUMENTS\n',
    );
    const reloaded = await s.q.reloadSkills();
    expect(reloaded.skills.map((c) => c.name)).toContain('ship');
    await writeFile(fifo, 'open\n');
    await first;
    // Inside the running turn the Skill tool still has the old set.
    expect(s.requestText(2)).toContain('There is no skill \\"ship\\"');
    await s.turn('/ship 2.0');
    await s.finish();
    expect(s.requestText(3)).toContain('SHIP-BODY 2.0');
    // The next turn's system/init already lists it.
    expect(s.slashCommands.map((names) => names.includes('ship'))).toEqual([false, true]);
  });
});
