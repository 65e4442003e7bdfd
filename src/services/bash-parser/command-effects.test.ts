import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse';
import { commandEffects } from './read-only-commands';

/** What one command does by its table: [line, refusal (or null), reads (`/**`: recursive), writes]. */
const CASES: Array<[string, RegExp | null, string[], string[]]> = [
  // Defaults: what a command reads when given no path.
  ['ls', null, ['.'], []],
  ['ls -R src', null, ['src/**'], []],
  ['du -sh', null, ['./**'], []],
  ['grep foo', null, [], []],
  ['grep -r foo', null, ['./**'], []],
  ['grep -rn foo src lib', null, ['src/**', 'lib/**'], []],
  ['grep -d recurse foo', null, ['./**'], []],
  ['grep -e foo src', null, ['src'], []],
  ['grep -f pats src', null, ['pats', 'src'], []],
  ['rg foo', null, ['./**'], []],
  ['rg --files src', null, ['src/**'], []],
  ['find', null, ['./**'], []],
  ['find src lib -name x -newer ref', null, ['src/**', 'lib/**', 'ref'], []],
  ['cat', null, [], []],
  ['cat - a', null, ['a'], []],
  ['cd', null, ['~'], []],
  ['cd -', null, ['-'], []],
  ['locate foo', null, ['//**'], []],
  ['echo -e $x *', null, [], []],
  ['tr a-z A-Z', null, [], []],
  ['basename /etc/passwd', null, [], []],
  // Writes and refusals from the tables.
  ['sort -o out x', /sort -o \(--output\) writes/, ['x'], ['out']],
  ['sort --compress-program=gzip x', /runs PROG/, ['x'], []],
  ['uniq a b', /uniq writes b/, ['a'], ['b']],
  ['date +%s', null, [], []],
  ['date 0101', /sets the clock/, [], []],
  ['hostname -s', null, [], []],
  ['hostname box', /hostname box renames the machine/, [], []],
  ['md5sum -c sums', /reads the names of the files/, ['sums'], []],
  ['xxd a b', /xxd writes b/, ['a'], ['b']],
  ['xxd -ps -c 8 a', null, ['a'], []],
  ['printf -v x %s a', null, [], []],
  ['printf -v a[1] %s a', /not a plain variable name/, [], []],
  ['jq .a f.json', null, ['f.json'], []],
  ["jq -n --args '$ARGS' a b", null, [], []],
  ['jq --rawfile s secret . f.json', null, ['secret', 'f.json'], []],
  ['jq \'import "m" as m; .\' f', /loads modules/, ['f'], []],
  ['strings -n 8 a', null, ['a'], []],
  ['file -f list', /reads the names of the files/, ['list'], []],
  // find's expression.
  ['find . -delete', /deletes/, ['./**'], []],
  ['find . -fprintf out %p', /writes formatted output/, ['./**'], ['out']],
  ['find . -exec cat {} +', /runs a command/, ['./**'], []],
  ['find "$d" -name x', /may expand to an action/, ['"$d"/**'], []],
  ['find . -newerat 2020-01-01', null, ['./**'], []],
  ['find . -newermm ref', null, ['./**', 'ref'], []],
  // git: global options, subcommand tables, list modes.
  ['git status', null, [], []],
  ['git -C ../x status', /another repository/, [], []],
  ['git -c a.b=c log', /sets configuration/, [], []],
  ['git --no-pager log -1', null, [], []],
  // What `git diff` prints is tracked content: judged by the tracked files, not as a read of `.`.
  ['git diff', null, [], []],
  ['git diff HEAD -- src', null, ['HEAD/**', 'src/**'], []],
  ['git show HEAD:src/x.ts', null, ['HEAD:src/x.ts/**', 'src/x.ts'], []],
  ['git log -L1,5:src/x.ts', null, ['src/x.ts'], []],
  ['git log --output=f', /writes its output/, [], ['f']],
  ['git log --pretty=format:%G?', /runs gpg/, [], []],
  ['git grep foo', null, ['./**'], []],
  ['git grep -O foo', /pager program/, ['./**'], []],
  ['git grep --open-files foo', /pager program/, ['./**'], []],
  ['git blame --contents other x', null, ['other', 'x'], []],
  ['git cat-file --filters HEAD:x', /clean\/smudge filters/, ['HEAD:x', 'x'], []],
  ['git branch -vv', null, [], []],
  ['git branch -l "f*"', null, [], []],
  ['git branch new', /git branch new creates a branch/, [], []],
  ['git branch -D old', /creates, renames/, [], []],
  ['git tag', null, [], []],
  ['git tag -n5', null, [], []],
  ['git tag v1', /git tag v1 creates a tag/, [], []],
  ['git config user.name', null, [], []],
  ['git config --get-regexp user', null, [], []],
  ['git config user.name me', /changes the configuration/, [], []],
  ['git config --unset user.name', /changes the configuration/, [], []],
  ['git remote -v', null, [], []],
  ['git remote show -n origin', null, [], []],
  ['git remote show origin', /contacts the remote/, [], []],
  ['git stash show -u', null, [], []],
  ['git stash drop', /changes the stash/, [], []],
  ['git reflog', null, [], []],
  ['git reflog expire --all', /removes reflog entries/, [], []],
  ['git worktree list --porcelain', null, [], []],
  ['git worktree add ../x', /changes the worktrees/, [], []],
  ['git push', /not a read-only git command/, [], []],
];

describe('commandEffects', () => {
  it.each(CASES)('%s', async (line, refusal, reads, writes) => {
    const [segment] = (await parseCommand(line)).segments;
    const argv = segment?.argv ?? [];
    const effects = commandEffects(argv[0]?.value ?? '', argv.slice(1));
    if (!effects) throw new Error(`no table for ${line}`);
    if (refusal) expect(effects.notReadOnly).toMatch(refusal);
    else expect(effects.notReadOnly).toBeUndefined();
    expect(effects.reads.map((r) => `${r.word.text}${r.recursive ? '/**' : ''}`)).toEqual(reads);
    expect(effects.writes.map((w) => w.word.text)).toEqual(writes);
  });

  it('has no answer for a command that is not on the lists', () => {
    expect(commandEffects('rm', [])).toBeUndefined();
  });
});
