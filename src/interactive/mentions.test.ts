/** @path mentions on real files, through the Read tool, with Read deny rules. */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../lib/permission-vocabulary';
import { emptyPermissionContext } from '../permissions/types';
import { makeContext } from '../tools/test-support';
import { expandMentions, findMentions } from './mentions';

let project: string;
beforeEach(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'yoke-mentions-')));
  await mkdir(join(project, 'src'));
  await writeFile(join(project, 'src', 'app.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
  await writeFile(join(project, 'notes with space.md'), '# notes\n');
  await writeFile(join(project, '.env'), 'API_KEY=secret\n');
});
afterEach(() => rm(project, { recursive: true, force: true }));

const ENV_DENY: PermissionRule = {
  toolName: 'Read',
  ruleContent: './.env',
  behavior: 'deny',
  source: 'projectSettings',
};

const context = (rules: PermissionRule[] = []) =>
  makeContext([], {
    cwd: project,
    projectRoot: project,
    getPermissionContext: () => ({ ...emptyPermissionContext(), rules }),
  });

const textOf = (message: { message: { content: unknown } }) =>
  (message.message.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('\n');

describe('findMentions', () => {
  it('finds paths after @ at a word start, quoted ones, line ranges; not e-mail addresses', () => {
    expect(
      findMentions(
        'look at @src/app.ts, and @"notes with space.md" and @src/app.ts#L2-3 — mail me at a@b.com',
      ),
    ).toEqual([
      { text: '@src/app.ts', path: 'src/app.ts' },
      { text: '@"notes with space.md"', path: 'notes with space.md' },
      { text: '@src/app.ts#L2-3', path: 'src/app.ts', startLine: 2, endLine: 3 },
    ]);
  });
});

describe('expandMentions', () => {
  it('attaches a file through the Read tool, with its line numbers, and records it as read', async () => {
    const ctx = context();
    const result = await expandMentions('explain @src/app.ts please', ctx);
    expect(result.attached).toEqual(['src/app.ts']);
    expect(result.problems).toEqual([]);
    expect(result.messages).toHaveLength(1);
    expect(result.messages[0]?.isMeta).toBe(true);
    const text = textOf(result.messages[0] as never);
    expect(text).toContain(`The user mentioned @src/app.ts (${join(project, 'src', 'app.ts')}).`);
    expect(text).toMatch(/1\s*[→\t|:]?\s*const a = 1;/);
    expect(ctx.readFileState.get(join(project, 'src', 'app.ts'))).toBeDefined();
  });

  it('reads only the lines of a #L range', async () => {
    const result = await expandMentions('@src/app.ts#L2-2', context());
    const text = textOf(result.messages[0] as never);
    expect(text).toContain('const b = 2;');
    expect(text).not.toContain('const a = 1;');
    expect(text).not.toContain('const c = 3;');
  });

  it('lists a folder', async () => {
    const result = await expandMentions('what is in @src/', context());
    expect(result.attached).toEqual(['src/']);
    expect(textOf(result.messages[0] as never)).toContain(`Folder ${join(project, 'src')}:\napp.ts`);
  });

  it('refuses a file a Read deny rule covers, naming the rule; the control without the rule attaches it', async () => {
    const denied = await expandMentions('use @.env', context([ENV_DENY]));
    expect(denied.messages).toEqual([]);
    expect(denied.problems).toEqual([
      `@.env was not attached: the deny rule Read(./.env) (projectSettings) covers ${join(project, '.env')}.`,
    ]);
    const allowed = await expandMentions('use @.env', context());
    expect(textOf(allowed.messages[0] as never)).toContain('API_KEY=secret');
  });

  it('refuses a symlink to a denied file and a folder listing through it; a link to an open file attaches', async () => {
    await symlink('.env', join(project, 'env-link'));
    await symlink('src/app.ts', join(project, 'app-link'));
    await mkdir(join(project, 'docs'));
    await symlink('../.env', join(project, 'docs', 'settings'));
    const denied = await expandMentions('use @env-link and @docs/ and @app-link', context([ENV_DENY]));
    const told = denied.messages.map((m) => textOf(m as never)).join('\n');
    expect(told).not.toContain('API_KEY=secret');
    expect(denied.problems[0]).toContain(
      '@env-link was not attached: the deny rule Read(./.env) (projectSettings) covers',
    );
    expect(told).not.toMatch(/^settings$/m);
    expect(told).toContain('const a = 1;');
  });

  it('says when a path does not exist, and ignores a bare @handle', async () => {
    const result = await expandMentions('ask @alice about @src/missing.ts', context());
    expect(result.messages).toEqual([]);
    expect(result.problems).toEqual([
      `@src/missing.ts was not attached: there is no ${join(project, 'src', 'missing.ts')}.`,
    ]);
  });
});
