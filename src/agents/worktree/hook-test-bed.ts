/**
 * Real WorktreeCreate/WorktreeRemove command hooks for the worktree tests: shell scripts that
 * make a plain folder (or a real `git worktree add` elsewhere) and print its path, one that
 * fails, one that prints garbage, and a remover — each logging the JSON it was given. Used only
 * by the `*.test.ts` files of this folder.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HooksSettings } from '../../config/settings-schema';
import { commandGroup, createHookTestBed, type HookTestBed } from '../../hooks/runner-test-support';

/** Reads one string field of the hook's JSON stdin (saved in $input) with node: no jq on CI. */
const field = (name: string) =>
  `$(printf '%s' "$input" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(String(JSON.parse(s)[process.argv[1]])))' ${name})`;

export type WorktreeHookBed = HookTestBed & {
  /** Where the create hooks make their folders. */
  trees: string;
  /** The create hooks' commands: a plain folder, a git worktree of `repo`, a failure, garbage. */
  create: { folder: string; gitWorktree(repo: string): Promise<string>; failing: string; garbage: string };
  remove: string;
  /** The hook inputs in the order the hooks ran. */
  calls(): Record<string, string>[];
  settings(create: string, remove?: string): HooksSettings;
};

export async function createWorktreeHookBed(): Promise<WorktreeHookBed> {
  const bed = await createHookTestBed();
  const trees = join(bed.dir, 'trees');
  mkdirSync(trees);
  const log = join(bed.dir, 'calls.jsonl');
  const record = `input=$(cat); printf '%s\\n' "$input" >> '${log}'`;
  const folder = await bed.script(
    'create-folder.sh',
    `${record}\ndir='${trees}'/${field('name')}\nmkdir -p "$dir"\necho "making $dir" >&2\necho "$dir"`,
  );
  const failing = await bed.script(
    'create-fails.sh',
    `${record}\necho 'no space left on the build volume' >&2\nexit 1`,
  );
  const garbage = await bed.script('create-garbage.sh', `${record}\necho 'worktree ready: see above'`);
  const remove = await bed.script('remove.sh', `${record}\nrm -rf "${field('worktree_path')}"`);
  return {
    ...bed,
    trees,
    create: {
      folder,
      failing,
      garbage,
      gitWorktree: (repo) =>
        bed.script(
          'create-git.sh',
          `${record}\ndir='${trees}'/${field('name')}\ngit -C '${repo}' worktree add -q -b "hook-$(basename "$dir")" "$dir" >&2 || exit 1\necho "$dir"`,
        ),
    },
    remove,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Record<string, string>)
        : [],
    settings: (create, removeCommand) => ({
      WorktreeCreate: [commandGroup(undefined, [create])],
      ...(removeCommand ? { WorktreeRemove: [commandGroup(undefined, [removeCommand])] } : {}),
    }),
  };
}
