/**
 * What a copy or move puts inside its destination folder, on a real disk: calibrated in a scratch
 * folder, `cp -r payload/. .` with `payload/.envrc` and `payload/.husky/pre-commit` created both in
 * the project root, and `cp -t .git/hooks f` wrote `.git/hooks/f`.
 */
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateBash } from './bash-permission';
import { filesCopiedInto } from './copy-targets';
import { diskPathFs, RealPaths } from './real-paths';
import { analyzeShellCommand } from './shell-analysis';

let project: string;
beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'yoke-copy-')));
  await mkdir(join(project, 'payload', '.husky'), { recursive: true });
  await mkdir(join(project, 'src'));
  await writeFile(join(project, 'payload', '.envrc'), 'e');
  await writeFile(join(project, 'payload', '.husky', 'pre-commit'), 'h');
  await writeFile(join(project, 'src', 'a.ts'), '');
});

async function copied(command: string) {
  const [unit] = (await analyzeShellCommand(command, { cwd: project, home: '/home/u' })).units;
  return filesCopiedInto(unit as never, { cwd: project, home: '/home/u' });
}

const env = () => ({
  rules: [],
  roots: { projectRoot: project, cwd: project, home: '/home/u' },
  workingDirs: [project],
  paths: new RealPaths(diskPathFs),
});

describe('filesCopiedInto', () => {
  it('names what a recursive copy of a folder lands', async () => {
    const files = await copied('cp -r payload/. .');
    expect(files).toContain(join(project, '.envrc'));
    expect(files).toContain(join(project, '.husky', 'pre-commit'));
    expect(await copied('mv payload newdir')).toContain(join(project, 'newdir', '.husky', 'pre-commit'));
  });

  it('follows -t and the destination folder, and expands a glob source on disk', async () => {
    expect(await copied('cp -t .git/hooks pre-commit')).toEqual([join(project, '.git/hooks/pre-commit')]);
    expect(await copied('cp payload/.envrc src')).toEqual([join(project, 'src', '.envrc')]);
    expect(await copied('mv payload/.e* src/')).toEqual([join(project, 'src', '.envrc')]);
  });

  it('names the backups -b keeps, with -S or SIMPLE_BACKUP_SUFFIX', async () => {
    expect(await copied('mv -b -S ributes a .gitatt')).toEqual([
      join(project, '.gitattributes'),
      join(project, '.gitatt/a'),
      join(project, '.gitatt/aributes'),
    ]);
    expect(await copied('SIMPLE_BACKUP_SUFFIX=rc mv --backup a .env')).toContain(join(project, '.envrc'));
    expect(await copied('mv -b -S "$S" a b')).toBeUndefined();
  });

  it('does not know what a dynamic source copied into a folder is', async () => {
    expect(await copied('cp "$X" src/')).toBeUndefined();
    expect(await copied('cp "$X" out.txt')).toEqual([]);
    expect(await copied('ls src')).toEqual([]);
  });
});

describe('the Bash evaluation of copies into a folder', () => {
  it('asks for a copy that plants protected files, allows an ordinary one', async () => {
    const planted = await evaluateBash('cp -r payload/. .', env());
    expect(planted.protectedWrites.map((w) => w.target)).toEqual(['.envrc', '.husky', '.husky/pre-commit']);
    expect(planted.editsInside).toBe(false);
    const plain = await evaluateBash('cp -r src backup', env());
    expect(plain.protectedWrites).toEqual([]);
    expect(plain.editsInside).toBe(true);
  });
});
