/**
 * An edit that could only fail is refused before the permission question: the REPL never asks
 * the person about an Edit of a file the model has not read (the call would say "read it first").
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-edit-pre-', async (cwd) => {
  await writeFile(join(cwd, 'app.ts'), 'export const answer = 41;\n');
});

describe.skipIf(!hasTmux)('the REPL and an edit that cannot apply', { timeout: 120_000 }, () => {
  it('does not ask about an Edit of an unread file; the model hears why, the file is untouched', async () => {
    const file = join(fx.cwd, 'app.ts');
    fx.server.reset([
      {
        reply: {
          content: [
            {
              type: 'tool_use',
              name: 'Edit',
              input: { file_path: file, old_string: 'answer = 41', new_string: 'answer = 42' },
            },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: 'I will read it first.' }] } },
    ]);
    const t = await fx.openReady([], { width: 100, height: 30 });
    await t.type('fix the answer');
    await t.press('Enter');
    // Had the question been asked, the turn would wait on it and never reach the reply.
    const screen = await t.waitFor('I will read it first.');
    expect(screen).not.toContain("don't ask again");
    expect(screen).toContain('has not been read');
    const request = JSON.stringify(fx.server.requests.at(-1)?.body);
    expect(request).toContain('has not been read in this conversation. Read it first');
    expect(await readFile(file, 'utf8')).toBe('export const answer = 41;\n');
  });
});
