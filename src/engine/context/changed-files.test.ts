import { rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageText } from '../../session/messages';
import { editTool } from '../../tools/builtin/edit';
import { readTool } from '../../tools/builtin/read';
import { callTool, makeTempDir, makeTestContext } from '../../tools/builtin/shared/test-context';
import { CHANGED_FILES_INTRO, ChangedFiles } from './changed-files';

const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n');

/** Someone else writes the file; its mtime moves a minute on, as any later write's would. */
async function writeElsewhere(path: string, text: string): Promise<void> {
  const before = await stat(path);
  await writeFile(path, text);
  const later = new Date(before.mtimeMs + 60_000);
  await utimes(path, later, later);
}

async function setup(text: string, readInput: Record<string, unknown> = {}) {
  const dir = await makeTempDir('yoke-changed-');
  const path = join(dir, 'notes.txt');
  await writeFile(path, text);
  const context = makeTestContext({ cwd: dir });
  await callTool(readTool, { file_path: path, ...readInput }, context);
  return { path, context, changed: new ChangedFiles(context.readFileState) };
}

const noticeText = async (changed: ChangedFiles) => {
  const message = await changed.check();
  return message ? messageText(message) : undefined;
};

describe('ChangedFiles', () => {
  it('shows a small change as a diff, once, and the model may then edit without reading again', async () => {
    const { path, context, changed } = await setup(`${lines(10)}\n`);
    expect(await noticeText(changed)).toBeUndefined();
    await writeElsewhere(path, `${lines(10).replace('line 5', 'line five')}\n`);

    const text = await noticeText(changed);
    expect(text).toBe(
      `${CHANGED_FILES_INTRO}\n- ${path} changed:\n` +
        '@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8',
    );
    expect(await noticeText(changed)).toBeUndefined();
    await callTool(editTool, { file_path: path, old_string: 'line five', new_string: 'line 5b' }, context);
    // The model's own edit is no outside change.
    expect(await noticeText(changed)).toBeUndefined();
  });

  it('names a large change once, without its text, and the file must be read again before an edit', async () => {
    const { path, context, changed } = await setup(`${lines(60)}\n`);
    await writeElsewhere(path, `${lines(60, 'row')}\n`);
    expect(await noticeText(changed)).toBe(
      `${CHANGED_FILES_INTRO}\n- ${path} changed (60 lines added, 60 removed). ` +
        'Read it again before relying on what you saw or editing it.',
    );
    expect(await noticeText(changed)).toBeUndefined();
    await expect(
      callTool(editTool, { file_path: path, old_string: 'row 1\n', new_string: 'row one\n' }, context),
    ).rejects.toThrow(/was modified since you last read it/);
    // A further change is a new version: it is named again.
    await writeElsewhere(path, `${lines(60, 'cell')}\n`);
    expect(await noticeText(changed)).toContain(`- ${path} changed (60 lines added, 60 removed).`);
  });

  it('tells again when the file goes back to a version it was told about (a revert of its own edit)', async () => {
    const { path, context, changed } = await setup(`${lines(60)}\n`);
    const theirs = `${lines(60, 'row')}\n`;
    await writeElsewhere(path, theirs);
    expect(await noticeText(changed)).toContain('changed (60 lines added, 60 removed)');
    await callTool(readTool, { file_path: path }, context);
    await callTool(editTool, { file_path: path, old_string: 'row 1\n', new_string: 'row one\n' }, context);
    // Someone reverts the model's edit, back to the version named before.
    await writeElsewhere(path, theirs);
    expect(await noticeText(changed)).toBe(
      `${CHANGED_FILES_INTRO}\n- ${path} changed:\n@@ -1,4 +1,4 @@\n-row one\n+row 1\n row 2\n row 3\n row 4`,
    );
  });

  it('gives no diff for a file read only in part', async () => {
    const { path, changed } = await setup(`${lines(30)}\n`, { offset: 10, limit: 5 });
    await writeElsewhere(path, `${lines(30).replace('line 2\n', 'line two\n')}\n`);
    expect(await noticeText(changed)).toContain(`- ${path} changed (content differs).`);
  });

  it('shows no content of a file swapped for a symbolic link to another file', async () => {
    // Calibrated for real: the notes file becomes a link to a secret outside the project, the way
    // a planted script could swap it after the model read it.
    const { path, changed } = await setup('api = public\n');
    const secret = join(await makeTempDir('yoke-secret-'), '.env');
    await writeFile(secret, 'api = sk-live-very-secret\n');
    await rm(path);
    await symlink(secret, path);
    const later = new Date(Date.now() + 60_000);
    await utimes(secret, later, later);
    const text = await noticeText(changed);
    expect(text).toBe(
      `${CHANGED_FILES_INTRO}\n- ${path} changed (it leads through a symbolic link, so no diff is shown). ` +
        'Read it again before relying on what you saw or editing it.',
    );
    expect(text).not.toContain('sk-live');
  });

  it('says when a file was deleted, and forgets it', async () => {
    const { path, context, changed } = await setup('short\n');
    await rm(path);
    expect(await noticeText(changed)).toBe(`${CHANGED_FILES_INTRO}\n- ${path} was deleted.`);
    expect(context.readFileState.has(path)).toBe(false);
  });

  it('stays quiet about a file that was only touched', async () => {
    const { path, context, changed } = await setup('same text\n');
    const later = new Date(Date.now() + 60_000);
    await utimes(path, later, later);
    expect(await noticeText(changed)).toBeUndefined();
    expect(context.readFileState.peek(path)?.mtimeMs).toBe((await stat(path)).mtimeMs);
  });
});
