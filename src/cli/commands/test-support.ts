/** Test helpers for the subcommands: a scratch home with a project folder in it. */
import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh folder under the system's temp folder (`root`, the caller removes it) that is the home
 * of Yoke's and Claude Code's user files, with an empty project folder `cwd` inside.
 */
export async function commandWorkspace(
  prefix: string,
): Promise<{ root: string; cwd: string; env: Record<string, string> }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const cwd = join(root, 'proj');
  await mkdir(cwd);
  const env = {
    HOME: root,
    YOKE_HOME: join(root, '.yoke'),
    CLAUDE_CONFIG_DIR: join(root, '.claude'),
    PATH: process.env.PATH ?? '',
  };
  return { root, cwd, env };
}
