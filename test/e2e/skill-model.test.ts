/**
 * A skill's `model` when the model runs it through the Skill tool (compat-surface §5: it overrides
 * while the skill runs): the requests after the Skill call use the skill's model for the rest of
 * that turn, and the next user turn is back on the session's model.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();
const SESSION_MODEL = 'claude-sonnet-5-5';

const userLine = (text: string) =>
  `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;

describe("a skill's model", () => {
  it('answers the rest of the turn after the Skill tool runs it, then the session model returns', async () => {
    const cwd = await tempProject();
    await mkdir(join(cwd, '.claude/skills/quick-check'), { recursive: true });
    await writeFile(
      join(cwd, '.claude/skills/quick-check/SKILL.md'),
      '---\ndescription: A fast look at a change\nmodel: haiku\n---\nLook quickly.\n',
    );
    await writeFile(join(cwd, 'notes.txt'), 'some notes\n');
    ws.server.reset([
      {
        reply: { content: [{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'quick-check' } }] },
      },
      {
        reply: {
          content: [
            { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: join(cwd, 'notes.txt') } },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: 'checked' }] } },
      { reply: { content: [{ type: 'text', text: 'second turn' }] } },
    ]);
    const run = await runYoke(
      [
        '-p',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        SESSION_MODEL,
      ],
      { cwd, env: mockEnv(ws.server.url, ws.home), input: userLine('check it') + userLine('and now?') },
    );
    expect(run.code).toBe(0);
    const models = ws.server.requests.map((r) => (r.body as { model: string }).model);
    // Before the skill, its two follow-up requests, and the next user turn.
    expect(models).toEqual([SESSION_MODEL, 'claude-haiku-5-5', 'claude-haiku-5-5', SESSION_MODEL]);
    expect(JSON.stringify(ws.server.requests[1]?.body)).toContain('Look quickly.');
  });
});
