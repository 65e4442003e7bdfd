import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioFile, parseScenario, ScenarioError } from './scenario';

const dir = mkdtempSync(join(tmpdir(), 'yoke-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('scenario loading', () => {
  it('loads YAML with defaults filled in', async () => {
    const path = file(
      'tool.yaml',
      [
        'requireAuth: false',
        'turns:',
        '  - reply:',
        '      content:',
        '        - type: tool_use',
        '          name: Bash',
        '          input: { command: ls }',
        '  - match: { lastToolResultContains: README }',
        '    fault: 429',
        '  - match: { lastToolResultContains: README }',
        '    repeat: forever',
        '    reply:',
        '      content: [{ type: text, text: Done. }]',
      ].join('\n'),
    );
    const scenario = await loadScenarioFile(path);
    expect(scenario.requireAuth).toBe(false);
    expect(scenario.chunkDelayMs).toBe(0);
    expect(scenario.turns[0]).toMatchObject({
      repeat: 1,
      reply: { content: [{ name: 'Bash', input: { command: 'ls' } }] },
    });
    expect(scenario.turns[1]?.fault).toEqual({ type: 'http', status: 429 });
    expect(scenario.turns[2]?.repeat).toBe('forever');
  });

  it('loads JSON, including a bare list of turns', async () => {
    const path = file('list.json', JSON.stringify([{ reply: { content: [{ type: 'text', text: 'hi' }] } }]));
    const scenario = await loadScenarioFile(path);
    expect(scenario.requireAuth).toBe(true);
    expect(scenario.turns).toHaveLength(1);
  });

  it('names the bad field in one line', async () => {
    const path = file(
      'bad.yaml',
      'turns:\n  - reply:\n      content:\n        - type: tool_use\n          input: {}\n',
    );
    const error = await loadScenarioFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    const message = (error as Error).message;
    expect(message).toContain(path);
    expect(message).toContain('turns[0].reply.content[0].name');
    expect(message).not.toContain('\n');
  });

  it('rejects unknown fields, wrong fault shapes and turns without a reply or fault', () => {
    expect(() => parseScenario({ turns: [{ reply: { content: [] }, repaet: 2 }] })).toThrow(/repaet/);
    expect(() => parseScenario([{ fault: { type: 'disconnect' } }])).toThrow(/turns\[0\]\.fault/);
    expect(() => parseScenario([{ match: { model: 'x' } }])).toThrow(
      /turns\[0\]\.reply: a turn needs a reply or a fault/,
    );
    expect(() =>
      parseScenario([{ fault: { type: 'prompt_too_long', status: 500, actualTokens: 1, limitTokens: 1 } }]),
    ).toThrow(/turns\[0\]\.fault/);
  });

  it('reports a YAML syntax error and a missing file on one line', async () => {
    const broken = file('broken.yaml', 'turns: [\n  - reply: {\n');
    await expect(loadScenarioFile(broken)).rejects.toThrow(/broken\.yaml: invalid yaml: [^\n]+$/);
    await expect(loadScenarioFile(join(dir, 'missing.yaml'))).rejects.toThrow(/cannot read scenario file/);
  });
});
