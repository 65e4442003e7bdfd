/**
 * What a new user runs into in the first hour, through the built CLI: typos of flags and commands,
 * hints that name commands that work today, bad values that say where and what, and a refused tool
 * call reported on stderr with the rule that would allow it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileExists, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();
const { answer, yoke } = ws;

describe('mistyped flags', () => {
  it('stop on a near miss of a flag that takes a value, before any model call', async () => {
    answer();
    const { code, stdout, stderr } = await yoke(['-p', 'hi', '--max-turn', '3']);
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: 'yoke: unknown option --max-turn; did you mean --max-turns? (not running without it)\n',
    });
    expect(ws.server.requests).toHaveLength(0);
  });

  it('run on after a near miss of a boolean flag, with the suggestion, keeping the prompt', async () => {
    answer('ran');
    const { code, stdout, stderr } = await yoke(['-p', '--verbos', 'hello there']);
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: 'ran\n',
      stderr: 'yoke: warning: ignoring unknown option --verbos; did you mean --verbose?\n',
    });
    expect(JSON.stringify(ws.server.requests[0]?.body)).toContain('hello there');
  });

  it('never take a Claude Code flag for a typo: an SDK passing a newer flag still runs', async () => {
    answer('ran');
    const { code, stderr } = await yoke(['-p', 'hi', '--sdk-url=ws://host', '--debug-to-stderr']);
    expect(code).toBe(0);
    expect(stderr).toBe(
      'yoke: warning: ignoring --sdk-url and its value "ws://host": a Claude Code option Yoke does not support yet\n' +
        'yoke: warning: ignoring --debug-to-stderr: a Claude Code option Yoke does not support yet\n',
    );
  });
});

describe('commands', () => {
  it('a mistyped command suggests the command meant', async () => {
    const { code, stderr } = await yoke(['sesions', 'list']);
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: 'yoke: unknown command "sesions"; did you mean `yoke sessions`?\n',
    });
    const verb = await yoke(['sessions', 'lst']);
    expect(verb.stderr).toBe('yoke: unknown command "sessions lst"; did you mean `yoke sessions list`?\n');
  });

  it('--help after a command prints its forms on stdout, not an error or a lookup of "--help"', async () => {
    const mcp = await yoke(['mcp', 'login', '--help']);
    expect({ code: mcp.code, stderr: mcp.stderr }).toEqual({ code: 0, stderr: '' });
    expect(mcp.stdout).toMatch(/^Usage:\n {2}yoke mcp add\|add-json\|remove {2,}configure MCP servers/);
    expect(mcp.stdout).toContain('yoke mcp login <name>');
    const trust = await yoke(['trust', '-h']);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain('yoke trust --list | --remove [dir]');
    // `yoke --help` lists every command, plugin's included.
    const help = await yoke(['--help']);
    expect(help.stdout).toContain('yoke plugin install <plugin>');
    expect(help.stdout).toContain('yoke sandbox check');
  });

  it('`yoke -p /context` counts the system prompt and the memory files it carries', async () => {
    answer();
    const dir = await tempProject();
    await writeFile(join(dir, 'AGENTS.md'), `# Rules\n${'Write the test first. '.repeat(100)}\n`);
    const { code, stdout } = await yoke(['-p', '/context'], dir);
    expect(code).toBe(0);
    const tokensOf = (label: string) =>
      Number(stdout.match(new RegExp(`${label}\\s+░+\\s+([\\d,]+)`))?.[1]?.replace(/,/g, ''));
    expect(tokensOf('System prompt')).toBeGreaterThan(100);
    expect(tokensOf('Memory files')).toBeGreaterThan(400);
    expect(stdout).toContain(`${join(dir, 'AGENTS.md')}: `);
    expect(ws.server.requests).toHaveLength(0);
  });

  it('`yoke sessions` without a verb lists the sessions', async () => {
    const dir = await tempProject();
    answer('saved');
    await yoke(['-p', 'a prompt to find later'], dir);
    const { code, stdout } = await yoke(['sessions'], dir);
    expect(code).toBe(0);
    expect(stdout).toContain('a prompt to find later');
    expect(stdout).toMatch(/^ID\s+AGE/);
  });

  it('--resume and --continue without -p and without a terminal say to use -p', async () => {
    const { code, stderr } = await yoke(['--resume', 'abc123', 'keep going']);
    expect(code).toBe(1);
    expect(stderr).toContain('needs a terminal');
    expect(stderr).toContain('use -p');
    const cont = await yoke(['-c']);
    expect(cont.stderr).toContain('needs a terminal');
  });
});

describe('messages that say where and what', () => {
  it('--json-schema names the column and the text where the JSON breaks', async () => {
    const { code, stderr } = await yoke(['-p', 'hi', '--json-schema', '{"type":"object",}']);
    expect(code).toBe(1);
    expect(stderr).toBe(
      'yoke: --json-schema is not valid JSON: column 18: a comma before \'}\' (JSON allows no comma after the last item; remove it) (at "}").\n',
    );
  });

  it('--add-dir of a folder that does not exist is an error naming it', async () => {
    const { code, stderr } = await yoke(['-p', 'hi', '--add-dir', 'no-such-dir']);
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `yoke: --add-dir no-such-dir: no such folder (${join(ws.cwd, 'no-such-dir')}).\n`,
    });
  });

  it('--settings that is missing or not JSON stops before any model call; a bad key only warns', async () => {
    answer();
    const missing = await yoke(['-p', 'hi', '--settings', 'no-such.json']);
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 1,
      stderr: `yoke: --settings no-such.json: Settings file given with --settings not found: ${join(ws.cwd, 'no-such.json')}. Nothing was run.\n`,
    });
    const broken = await yoke(['-p', 'hi', '--settings', '{"permissions": {"deny": ["Bash"]']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /^yoke: --settings \{.*: Invalid JSON in settings --settings at line 1, column \d+: .*\. Nothing was run\.\n$/,
    );
    expect(ws.server.requests).toHaveLength(0);
    answer('ran');
    const typo = await yoke(['-p', 'hi', '--settings', '{"modle": "haiku"}']);
    expect(typo.code).toBe(0);
    expect(typo.stderr).toContain('unknown key "modle" (did you mean "model"?)');
  });

  it('--max-budget-usd: the result names the limit and what was spent', async () => {
    ws.server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'x' } }],
          usage: { inputTokens: 100_000, outputTokens: 1000 },
        },
      },
      { reply: { content: [{ type: 'text', text: 'never' }] } },
    ]);
    const { code, stderr } = await yoke(['-p', 'hi', '--max-budget-usd', '0.01']);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^yoke: Reached the maximum budget of \$0\.01 \(--max-budget-usd\); this session has cost \$\d+\.\d{2,4}\.\n$/,
    );
  });
});

describe('a refused tool call in text mode', () => {
  it('is reported on stderr with the rule that would allow it, and nothing is written', async () => {
    const dir = await tempProject();
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src', 'a.txt'), 'a\n');
    ws.server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'touch made.txt' } }],
        },
      },
      { reply: { content: [{ type: 'text', text: 'could not' }] } },
    ]);
    const { code, stdout, stderr } = await yoke(['-p', 'make a file'], dir);
    expect(code).toBe(0);
    expect(stdout).toBe('could not\n');
    expect(stderr).toMatch(
      /^yoke: Permission for Bash: touch made\.txt was not granted: .*To allow it, add "Bash\(touch/,
    );
    expect(stderr).toContain('--allowedTools');
    expect(await fileExists(join(dir, 'made.txt'))).toBe(false);
  });
});
