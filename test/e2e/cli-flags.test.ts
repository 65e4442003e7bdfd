/**
 * The command line of the built binary: flag forms, unknown flags, bad values, flags of features
 * that are not available yet, and where flags end up in the model request.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();
const { answer, yoke } = ws;
type RequestBody = { tools?: { name: string }[]; system?: unknown; thinking?: unknown };
const firstBody = () => ws.server.requests[0]?.body as RequestBody;

describe('yoke without -p', () => {
  it('without a terminal, says in one line that the REPL needs one and to use -p, and exits 1', async () => {
    const { code, stdout, stderr } = await yoke(['hello']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'yoke: the interactive UI needs a terminal (stdin and stdout a TTY); use -p "<prompt>" for a headless run.\n',
    );
  });
});

describe('flag forms', () => {
  it('help lists the output formats and the SDK-facing flags', async () => {
    const { code, stdout } = await yoke(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--output-format',
      '--input-format',
      '--allowedTools',
      '--permission-mode',
      '--add-dir',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('accepts --x=v, --x v, bare booleans, empty values and repeated lists', async () => {
    answer('fine');
    await mkdir(join(ws.cwd, 'a'), { recursive: true });
    await mkdir(join(ws.cwd, 'b'), { recursive: true });
    const { code, stdout, stderr } = await yoke([
      '--print',
      '--setting-sources=',
      '--add-dir',
      'a',
      '--add-dir=b',
      '--max-turns=3',
      '--model',
      'haiku',
      '--no-session-persistence',
      '--strict-mcp-config',
      '--include-hook-events',
      'go',
    ]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'fine\n', stderr: '' });
    expect(ws.server.requests[0]?.body).toMatchObject({ model: expect.stringContaining('haiku') });
  });

  it('warns once per unknown flag, with or without a value, and still runs', async () => {
    answer('still ran');
    const { code, stdout, stderr } = await yoke([
      '-p',
      '--frobnicate',
      '--level',
      '3',
      '--colour=blue',
      'hi',
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('still ran\n');
    expect(stderr.trim().split('\n')).toEqual([
      'yoke: warning: ignoring unknown option --frobnicate',
      'yoke: warning: ignoring unknown option --level and its value "3"',
      'yoke: warning: ignoring unknown option --colour and its value "blue"',
    ]);
  });

  it.each([
    [['--max-turns=abc'], 'yoke: --max-turns must be a whole number of at least 1 (got "abc").'],
    [
      ['--output-format', 'yaml'],
      'yoke: --output-format must be one of text, json, stream-json (got "yaml").',
    ],
    [
      ['--json-schema', 'not json'],
      'yoke: --json-schema is not valid JSON: column 1: unexpected \'n\' (at "not json").',
    ],
    [['--model'], 'yoke: --model needs a value, e.g. --model=<value>.'],
    [
      ['--input-format=stream-json'],
      'yoke: --input-format=stream-json requires --output-format=stream-json.',
    ],
  ])('rejects %j with one line and exit 1', async (args, line) => {
    const { code, stdout, stderr } = await yoke(['-p', 'hi', ...args]);
    expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });
  });
});

describe('flags of features that are not available yet', () => {
  it.each([[['--session-mirror'], 'transcript mirroring (--session-mirror)']])(
    '%j fails with one line and exit 1',
    async (args, feature) => {
      const { code, stdout, stderr } = await yoke(['-p', 'hi', ...args]);
      expect({ code, stdout, stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `yoke: not available yet: ${feature}\n`,
      });
    },
  );

  it('accepts them when they ask for nothing missing', async () => {
    answer('ok');
    const { code, stderr } = await yoke(['-p', 'hi', '--agents={}', '--strict-mcp-config']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});

describe('flags that shape the request', () => {
  it('--tools restricts the offered tools; "" offers none', async () => {
    answer();
    await yoke(['-p', 'hi', '--tools', 'Read,Grep']);
    expect(firstBody().tools?.map((t) => t.name)).toEqual(['Grep', 'Read']);
    answer();
    await yoke(['-p', 'hi', '--tools=']);
    expect(firstBody().tools ?? []).toEqual([]);
  });

  it('a bare --disallowedTools name removes the tool', async () => {
    answer();
    await yoke(['-p', 'hi', '--disallowedTools', 'Bash']);
    const names = firstBody().tools?.map((t) => t.name) ?? [];
    expect(names).toContain('Read');
    expect(names).not.toContain('Bash');
  });

  it("Claude Code's space-separated lists, with the prompt after --, after the list, or first", async () => {
    const prompt = () => JSON.stringify((firstBody() as { messages?: unknown }).messages);
    answer();
    expect((await yoke(['-p', '--tools', 'Read', 'Grep', '--', 'list the files'])).code).toBe(0);
    expect(firstBody().tools?.map((t) => t.name)).toEqual(['Grep', 'Read']);
    expect(prompt()).toContain('list the files');
    answer();
    const run = await yoke(['-p', '--disallowedTools', 'Bash', 'WebFetch', 'Write', 'read the notes']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const names = firstBody().tools?.map((t) => t.name) ?? [];
    expect(names).toContain('Read');
    for (const removed of ['Bash', 'WebFetch', 'Write']) expect(names).not.toContain(removed);
    expect(prompt()).toContain('read the notes');
    answer();
    await yoke(['-p', 'summarize', '--tools', 'Read', 'Glob']);
    expect(firstBody().tools?.map((t) => t.name)).toEqual(['Glob', 'Read']);
    expect(prompt()).toContain('summarize');
  });

  it('--system-prompt and --append-system-prompt reach the system prompt', async () => {
    answer();
    await yoke(['-p', 'hi', '--system-prompt=You are a test double.', '--append-system-prompt', 'Be brief.']);
    const system = JSON.stringify(firstBody().system);
    expect(system).toContain('You are a test double.');
    expect(system).toContain('Be brief.');
  });

  it('--max-thinking-tokens enables thinking with that budget', async () => {
    answer();
    await yoke(['-p', 'hi', '--max-thinking-tokens=2048']);
    expect(firstBody().thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });
});

describe('--debug and --debug-file', () => {
  it('--debug-file gets the debug lines and stderr stays clean', async () => {
    answer('ok');
    const file = join(await tempProject('yoke-debug-'), 'debug.log');
    const { code, stdout, stderr } = await yoke(['-p', 'hi', '--debug-file', file]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'ok\n', stderr: '' });
    expect(await readFile(file, 'utf8')).toContain('[debug] model ');
  });

  it('stream-json stdout stays protocol-only with --debug', async () => {
    answer('ok');
    const { code, stdout, stderr } = await yoke([
      '-p',
      'hi',
      '--output-format=stream-json',
      '--verbose',
      '--debug',
    ]);
    expect(code).toBe(0);
    for (const line of stdout.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(stderr).toContain('[debug]');
  });
});
