/**
 * `yoke -p` through the real CLI binary, against the mock model server over HTTP.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentTool } from '../../src/agents/agent-tool';
import { sendMessageTool } from '../../src/agents/background/send-message';
import { BUILT_IN_AGENTS } from '../../src/agents/built-in';
import { AgentRegistry } from '../../src/agents/registry';
import { WORKTREE_TOOLS } from '../../src/agents/worktree/tools';
import { createBuiltinTools } from '../../src/tools/builtin';
import { toInputJsonSchema } from '../../src/tools/tool';
import { mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

describe('yoke --version and --help', () => {
  it('prints the version', async () => {
    const { code, stdout } = await runYoke(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+ \(Yoke\)\n$/);
  });

  it('prints help naming -p', async () => {
    const { code, stdout } = await runYoke(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--print');
  });
});

describe('yoke -p', () => {
  it('answers a prompt and prints only the final text', async () => {
    ws.server.reset([{ reply: { content: [{ type: 'text', text: 'Hello from the mock.' }] } }]);
    const cwd = await tempProject();
    const { code, stdout, stderr } = await runYoke(['-p', 'say hello'], {
      cwd,
      env: mockEnv(ws.server.url, ws.home),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('Hello from the mock.\n');
    const body = ws.server.requests[0]?.body as { messages: { content: unknown }[]; system: unknown };
    expect(JSON.stringify(body.messages)).toContain('say hello');
    expect(JSON.stringify(body.system)).toContain(cwd);
  });

  it('sends each built-in tool with the JSON Schema its zod schema converts to', async () => {
    // The built CLI carries these schemas converted at build time; they must be what the source says.
    ws.server.reset([{ reply: { content: [{ type: 'text', text: 'ok' }] } }]);
    await runYoke(['-p', 'hi'], { cwd: await tempProject(), env: mockEnv(ws.server.url, ws.home) });
    const body = ws.server.requests[0]?.body as { tools: { name: string; input_schema: unknown }[] };
    // ToolSearch goes out only when something is deferred (deferred-tools.test.ts checks it there).
    // The session adds the Agent tool, the worktree tools and SendMessage to the built-ins.
    const builtins = [
      ...createBuiltinTools(),
      createAgentTool(new AgentRegistry(BUILT_IN_AGENTS)),
      ...WORKTREE_TOOLS,
      sendMessageTool,
    ];
    const expected = Object.fromEntries(
      builtins.filter((t) => t.name !== 'ToolSearch').map((t) => [t.name, toInputJsonSchema(t.inputSchema)]),
    );
    const sent = Object.fromEntries(body.tools.map((t) => [t.name, t.input_schema]));
    expect(Object.keys(expected).length).toBeGreaterThan(10);
    expect(sent).toEqual(expected);
  });

  it('reads the prompt from stdin', async () => {
    ws.server.reset([
      {
        match: { lastUserTextContains: 'piped question' },
        reply: { content: [{ type: 'text', text: 'piped answer' }] },
      },
    ]);
    const { code, stdout } = await runYoke(['-p'], {
      cwd: await tempProject(),
      env: mockEnv(ws.server.url, ws.home),
      input: 'a piped question',
    });
    expect(code).toBe(0);
    expect(stdout).toBe('piped answer\n');
  });

  it('fails with one line naming the variable when no key is set', async () => {
    const { code, stdout, stderr } = await runYoke(['-p', 'hi'], {
      env: { ...mockEnv(ws.server.url, ws.home), ANTHROPIC_API_KEY: undefined },
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('ANTHROPIC_API_KEY');
  });

  it('talks to a local OpenAI-compatible server with --provider openai and no key', async () => {
    ws.server.reset({
      requireAuth: false,
      turns: [{ match: { api: 'openai' }, reply: { content: [{ type: 'text', text: 'from openai' }] } }],
    });
    const { code, stdout } = await runYoke(['-p', 'hi', '--provider', 'openai', '--model', 'qwen2.5-coder'], {
      env: {
        ...mockEnv(ws.server.url, ws.home),
        ANTHROPIC_API_KEY: undefined,
        OPENAI_BASE_URL: `${ws.server.url}/v1`,
      },
    });
    expect(code).toBe(0);
    expect(stdout).toBe('from openai\n');
    // Beside the conversation, the server is asked for the unknown model's context length.
    expect(ws.server.requests.filter((r) => r.api === 'openai').map((r) => r.path)).toEqual([
      '/v1/chat/completions',
    ]);
  });

  it('exits 1 with the max-turns error', async () => {
    ws.server.reset([
      {
        reply: { content: [{ type: 'tool_use', name: 'Glob', input: { pattern: '*' } }] },
        repeat: 'forever',
      },
    ]);
    const { code, stderr } = await runYoke(['-p', 'loop', '--max-turns', '1'], {
      cwd: await tempProject(),
      env: mockEnv(ws.server.url, ws.home),
    });
    expect(code).toBe(1);
    expect(stderr).toContain('Reached maximum number of turns (1)');
  });

  it('runs a scripted session that reads, edits, greps and runs a command', async () => {
    const cwd = await tempProject();
    await writeFile(join(cwd, 'app.js'), 'const greeting = "hello";\nconsole.log(greeting);\n');
    ws.server.reset([
      { reply: { content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'app.js' } }] } },
      {
        match: { lastToolResultContains: 'const greeting' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'e1',
              name: 'Edit',
              input: { file_path: 'app.js', old_string: '"hello"', new_string: '"hello, yoke"' },
            },
          ],
        },
      },
      {
        match: { lastToolResultContains: 'app.js' },
        reply: {
          content: [
            { type: 'tool_use', id: 'g1', name: 'Grep', input: { pattern: 'yoke', output_mode: 'content' } },
          ],
        },
      },
      {
        match: { lastToolResultContains: 'hello, yoke' },
        reply: { content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'node app.js' } }] },
      },
      {
        match: { lastToolResultContains: 'hello, yoke' },
        reply: { content: [{ type: 'text', text: 'The program now prints hello, yoke.' }] },
      },
    ]);
    const { code, stdout, stderr } = await runYoke(
      ['-p', 'change the greeting', '--permission-mode', 'bypassPermissions'],
      {
        cwd,
        env: mockEnv(ws.server.url, ws.home),
      },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('The program now prints hello, yoke.\n');
    expect(await readFile(join(cwd, 'app.js'), 'utf8')).toBe(
      'const greeting = "hello, yoke";\nconsole.log(greeting);\n',
    );
    const bashResult = JSON.stringify(ws.server.requests[4]?.body);
    expect(bashResult).toContain('hello, yoke');
  });

  it('refuses a write in default mode and tells the model how to allow it', async () => {
    const cwd = await tempProject();
    ws.server.reset([
      {
        reply: {
          content: [
            { type: 'tool_use', id: 'w1', name: 'Write', input: { file_path: 'new.txt', content: 'x' } },
          ],
        },
      },
      {
        match: { lastToolResultContains: 'new.txt' },
        reply: { content: [{ type: 'text', text: 'Could not write.' }] },
      },
      { reply: { content: [{ type: 'text', text: 'Could not write.' }] } },
    ]);
    const { code, stdout } = await runYoke(['-p', 'write a file'], {
      cwd,
      env: mockEnv(ws.server.url, ws.home),
    });
    expect(code).toBe(0);
    expect(stdout).toBe('Could not write.\n');
    await expect(readFile(join(cwd, 'new.txt'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    const toolResult = JSON.stringify(ws.server.requests[1]?.body);
    expect(toolResult).toContain('"is_error":true');
  });
});
