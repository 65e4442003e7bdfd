/**
 * A project may live under /tmp (a clone for a quick fix, a CI checkout): `rm -r` inside it is
 * as destructive there as anywhere, and its warning names what it deletes. Only a temp folder
 * outside the session's folders is scratch that `rm -r` may clear without the warning.
 *
 * Calibrated for real below: each command is run with sh in a project made under the test's
 * TMPDIR, and what it deleted is looked at after.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileExists } from '../../test/e2e/helpers';
import { decideCase } from './corpus-test-support';

let temp: string;
let project: string;
beforeEach(async () => {
  temp = await mkdtemp(join(tmpdir(), 'yoke-rm-'));
  project = join(temp, 'project');
  await mkdir(join(project, 'src'), { recursive: true });
  await writeFile(join(project, 'src', 'main.ts'), 'export {};\n');
  await mkdir(join(temp, 'build-cache'));
});
afterEach(async () => {
  await rm(temp, { recursive: true, force: true });
});

const sh = (command: string) => execFileSync('sh', ['-c', command], { cwd: project });
// A broad rule covers any command in the project but a destructive one: the warning makes it ask.
const decide = (cmd: string) => decideCase({ cmd, allow: ['Bash'], expect: 'ask' }, { projectRoot: project });
// The scratch folder is made a working folder too, so a write there needs no question of its own.
const decideWithScratch = (cmd: string) =>
  decideCase(
    { cmd, allow: ['Bash'], dirs: [join(temp, 'build-cache')], expect: 'allow' },
    { projectRoot: project },
  );

describe('rm -r in a project under the temp folder', () => {
  it('warns, naming what it deletes, for the project and its folders', async () => {
    const inside = await decide('rm -rf src');
    expect(inside.verdict).toBe('ask');
    expect(inside.question).toContain('rm -r deletes src and everything in it');
    const whole = await decide(`rm -rf ${project} dist`);
    expect(whole.question).toContain(`rm -r deletes ${project} and dist and everything in them`);
    sh('rm -rf src');
    expect(await fileExists(join(project, 'src', 'main.ts'))).toBe(false);
  });

  it('still lets a broad rule clear a temp folder outside the project without a warning', async () => {
    const scratch = join(temp, 'build-cache');
    expect((await decideWithScratch(`rm -rf ${scratch}`)).verdict).toBe('allow');
    sh(`rm -rf ${scratch}`);
    expect(await fileExists(scratch)).toBe(false);
    expect(await fileExists(join(project, 'src', 'main.ts'))).toBe(true);
  });
});
