/**
 * Two sessions in one process, built by the composition root and run at the same time, see
 * nothing of each other: not their background shells or ids, todos, read-file state, costs,
 * working directory, settings or permission mode. Each talks to its own mock model server over
 * real HTTP; the tools are the real ones, on real files and processes. The two conversations meet
 * twice through FIFOs, so each one's tools run while the other's do, and the order of what one
 * does before and after a meeting is fixed without any sleep.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SDKMessage, SDKResultMessage, SDKUserMessage } from '../engine/sdk-messages';
import { type MockServer, type ScriptedReplyInput, startMockServer } from '../testing/mock-server';
import { parseCliArgs } from './parse-args';
import { createSessionEngine, type SessionSetup } from './session-setup';

const open: { servers: MockServer[]; sessions: SessionSetup[] } = { servers: [], sessions: [] };
afterEach(async () => {
  await Promise.all(open.sessions.splice(0).map(({ engine }) => engine.close()));
  await Promise.all(open.servers.splice(0).map((server) => server.close()));
});

type Call = { name: string; input: Record<string, unknown> };

/** One model reply per call, each with a usage of its own size, then a closing text. */
function script(calls: Call[], inputTokens: number): ScriptedReplyInput[] {
  const usage = { inputTokens, outputTokens: 1 };
  return [
    ...calls.map((call, i) => ({
      content: [{ type: 'tool_use' as const, id: `toolu_${i}`, name: call.name, input: call.input }],
      usage,
    })),
    { content: [{ type: 'text' as const, text: 'Done.' }], usage },
  ];
}

/**
 * A meeting through FIFOs. Its timeout only bounds a failure (the other side refused or never
 * came): the meeting itself ends as soon as both sides are there.
 */
const meeting = (command: string) => ({ command, timeout: 20_000 });

const todo = (content: string) => ({ content, status: 'pending', activeForm: content });

async function session(argv: string[], cwd: string, calls: Call[], inputTokens: number, home: string) {
  const server = await startMockServer({ scenario: script(calls, inputTokens).map((reply) => ({ reply })) });
  open.servers.push(server);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    YOKE_HOME: join(home, '.yoke'),
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'test-key',
  };
  const setup = await createSessionEngine(parseCliArgs(['-p', 'go', ...argv]).options, env, cwd);
  open.sessions.push(setup);
  return { setup, server };
}

async function run(setup: SessionSetup): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const message of setup.engine.submitMessage('Go.')) out.push(message);
  return out;
}

/** What each tool call returned, in call order: the text the model saw and the tool's own result. */
function toolResults(messages: SDKMessage[]) {
  return messages
    .filter((m): m is SDKUserMessage => m.type === 'user')
    .flatMap((m) => {
      const content = m.message.content;
      if (typeof content === 'string') return [];
      return content.flatMap((block) =>
        block.type === 'tool_result'
          ? [
              {
                text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
                isError: block.is_error === true,
                result: m.tool_use_result as Record<string, unknown> | undefined,
              },
            ]
          : [],
      );
    });
}

const resultOf = (messages: SDKMessage[]) => messages.find((m) => m.type === 'result') as SDKResultMessage;

describe('two sessions in one process', () => {
  it('run tools side by side without seeing each other', { timeout: 60_000 }, async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-two-sessions-')));
    const [home, shared, projectA, projectB] = ['home', 'shared', 'a', 'b'].map((name) =>
      join(root, name),
    ) as [string, string, string, string];
    for (const dir of [home, shared, join(projectA, 'sub'), projectB]) mkdirSync(dir, { recursive: true });
    const file = join(shared, 'shared.txt');
    writeFileSync(file, 'original\n');
    // Where the two conversations meet: opening a FIFO blocks until the other side opens it too.
    for (const fifo of ['ab', 'ba', 'ab2', 'ba2']) execFileSync('mkfifo', [join(shared, fifo)]);
    const fifo = (name: string) => join(shared, name);

    const callsA: Call[] = [
      { name: 'TodoWrite', input: { todos: [todo('A: first')] } },
      { name: 'Read', input: { file_path: file } },
      { name: 'Bash', input: { command: 'echo output of A', run_in_background: true } },
      { name: 'Bash', input: meeting(`echo from-a > ${fifo('ab')}; cat ${fifo('ba')}`) },
      { name: 'TaskOutput', input: { task_id: 'bash_1' } },
      { name: 'TaskStop', input: { task_id: 'bash_2' } },
      { name: 'Bash', input: { command: 'cd sub; seq 1 3000' } },
      { name: 'Write', input: { file_path: 'note.txt', content: 'from A\n' } },
      { name: 'Bash', input: meeting(`echo a2 > ${fifo('ab2')}; cat ${fifo('ba2')}`) },
      { name: 'Edit', input: { file_path: file, old_string: 'original', new_string: 'changed by A' } },
      { name: 'TodoWrite', input: { todos: [todo('A: second')] } },
      { name: 'Bash', input: { command: 'pwd' } },
    ];
    const callsB: Call[] = [
      { name: 'Bash', input: { command: 'echo output of B', run_in_background: true } },
      { name: 'Bash', input: { command: 'sleep 100', run_in_background: true } },
      { name: 'Bash', input: meeting(`cat ${fifo('ab')}; echo from-b > ${fifo('ba')}`) },
      { name: 'TodoWrite', input: { todos: [todo('B: only')] } },
      { name: 'Edit', input: { file_path: file, old_string: 'original', new_string: 'changed by B' } },
      { name: 'Read', input: { file_path: file } },
      { name: 'Edit', input: { file_path: file, old_string: 'original', new_string: 'changed by B' } },
      { name: 'Bash', input: meeting(`cat ${fifo('ab2')}; echo b2 > ${fifo('ba2')}`) },
      { name: 'TaskOutput', input: { task_id: 'bash_1' } },
      { name: 'TaskStop', input: { task_id: 'bash_2' } },
      { name: 'Bash', input: { command: 'seq 1 3000; pwd' } },
      { name: 'Write', input: { file_path: 'note.txt', content: 'from B\n' } },
    ];
    const allowed = 'Bash,TaskOutput,TaskStop';
    const a = await session(
      [
        '--add-dir',
        shared,
        '--allowedTools',
        allowed,
        '--model',
        'sonnet',
        '--permission-mode',
        'acceptEdits',
        '--settings',
        JSON.stringify({ bashOutputMaxChars: 4000 }),
      ],
      projectA,
      callsA,
      1000,
      home,
    );
    // B may edit the shared folder (an Edit rule covers Write too), and nothing else.
    const b = await session(
      ['--add-dir', shared, '--allowedTools', `${allowed},Edit(/${shared}/**)`, '--model', 'haiku'],
      projectB,
      callsB,
      7,
      home,
    );

    const [outA, outB] = await Promise.all([run(a.setup), run(b.setup)]);
    const resultsA = toolResults(outA);
    const resultsB = toolResults(outB);
    expect(resultsA).toHaveLength(callsA.length);
    expect(resultsB).toHaveLength(callsB.length);
    const [todoA1, , , meetA1, outputA, stopA, seqA, writeA, , editA, todoA2, pwdA] = resultsA;
    const [, , meetB1, todoB, editB1, , editB2, , outputB, stopB, seqB, writeB] = resultsB;

    // Both were running tools at once: each read what the other wrote into the FIFO.
    expect(meetA1?.text).toContain('from-b');
    expect(meetB1?.text).toContain('from-a');

    // Background shells: each session numbers its own, and reaches only its own.
    expect(outputA?.text).toContain('output of A');
    expect(outputA?.text).not.toContain('output of B');
    expect(outputB?.text).toContain('output of B');
    expect(stopA).toMatchObject({ isError: true });
    expect(stopA?.text).toContain('No background task with id bash_2. Known background shells: bash_1.');
    expect(stopB?.result).toMatchObject({ task_id: 'bash_2', command: 'sleep 100' });
    expect(stopB?.text).toContain('final status: killed');

    // Todos: B's list started empty although A had written one before they met.
    expect(todoA1?.result).toMatchObject({ oldTodos: [] });
    expect(todoB?.result).toMatchObject({ oldTodos: [], newTodos: [todo('B: only')] });
    expect(todoA2?.result).toMatchObject({ oldTodos: [todo('A: first')] });

    // Read-file state: A's read did not count for B, and B's later edit reached A as a change to
    // a file A had read: at A's next turn boundary A was shown the change (its own read state
    // brought up to date, engine/context/changed-files.ts), so A's edit of the old text finds
    // nothing to replace and writes nothing.
    expect(editB1).toMatchObject({ isError: true });
    expect(editB1?.text).toContain('has not been read in this conversation');
    expect(editB2).toMatchObject({ isError: false });
    expect(editA).toMatchObject({ isError: true });
    expect(editA?.text).toContain('old_string was not found');
    expect(readFileSync(file, 'utf8')).toBe('changed by B\n');

    // Settings: A's bashOutputMaxChars cut its output; B kept the default and all of it.
    expect(seqA?.text).toContain('characters omitted here');
    expect(seqB?.text).not.toContain('characters omitted');
    expect(seqB?.text).toContain('\n2999\n3000\n');

    // Working directory and permission mode: A's `cd` moved A alone, and its relative write went
    // there under acceptEdits; B, in default mode, was refused its write.
    expect(pwdA?.text.trim()).toBe(join(projectA, 'sub'));
    expect(seqB?.text.trim().endsWith(projectB)).toBe(true);
    expect(writeA).toMatchObject({ isError: false });
    expect(readFileSync(join(projectA, 'sub', 'note.txt'), 'utf8')).toBe('from A\n');
    expect(writeB).toMatchObject({ isError: true });
    expect(existsSync(join(projectB, 'note.txt'))).toBe(false);
    expect(a.setup.engine.permissionMode).toBe('acceptEdits');
    expect(b.setup.engine.permissionMode).toBe('default');

    // Costs: each result counts its own requests, on its own model, and nothing of the other's.
    const resultA = resultOf(outA);
    const resultB = resultOf(outB);
    const requests = (server: MockServer) => server.requests.filter((r) => r.path === '/v1/messages').length;
    expect(Object.keys(resultA.modelUsage)).toEqual([a.setup.selection.model]);
    expect(Object.keys(resultB.modelUsage)).toEqual([b.setup.selection.model]);
    expect(resultA.modelUsage[a.setup.selection.model]?.inputTokens).toBe(1000 * requests(a.server));
    expect(resultB.modelUsage[b.setup.selection.model]?.inputTokens).toBe(7 * requests(b.server));
    expect(resultA.total_cost_usd).toBeCloseTo(
      resultA.modelUsage[a.setup.selection.model]?.costUSD ?? -1,
      10,
    );
    expect(resultB.total_cost_usd).toBeCloseTo(
      resultB.modelUsage[b.setup.selection.model]?.costUSD ?? -1,
      10,
    );
    expect(resultB.permission_denials.map((d) => d.tool_name)).toEqual(['Write']);
    expect(resultA.permission_denials).toEqual([]);
  });
});
