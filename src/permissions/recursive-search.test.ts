import { describe, expect, it } from 'vitest';
import { recursiveSearch } from './recursive-search';

const words = (line: string) =>
  line
    .split(' ')
    .filter(Boolean)
    .map((value) => ({ text: value, value, dynamic: value.startsWith('$'), glob: false, tilde: false }));

/** The searched folders of `grep …` / `rg …` by text, `.` included when implied. */
function folders(line: string) {
  const [name, ...rest] = line.split(' ');
  const args = words(rest.join(' '));
  const search = recursiveSearch(name as string, args);
  if (!search) return undefined;
  const named = search.operands.map((i) => args[i]?.value);
  return { folders: search.implicitDot ? [...named, '.'] : named, follows: search.followsLinks };
}

describe('recursiveSearch', () => {
  it.each([
    ['grep -r KEY .', ['.'], false],
    ['grep -r KEY', ['.'], false],
    ['grep -rn KEY src lib', ['src', 'lib'], false],
    ['grep -R KEY src', ['src'], true],
    ['grep --recursive KEY src', ['src'], false],
    ['grep --recur KEY src', ['src'], false],
    ['grep --dereference-recursive KEY src', ['src'], true],
    ['grep -d recurse KEY src', ['src'], false],
    ['grep --directories=recurse KEY', ['.'], false],
    ['grep -rA 3 KEY src', ['src'], false],
    ['grep -r -e KEY -e OTHER src', ['src'], false],
    ['grep -rf patterns.txt', ['.'], false],
    ['grep -r -- -KEY src', ['src'], false],
    ['rg KEY', ['.'], false],
    ['rg KEY src', ['src'], false],
    ['rg -L KEY src', ['src'], true],
    ['rg --follow KEY', ['.'], true],
    ['rg -g *.ts KEY src', ['src'], false],
    ['rg -t ts -A2 KEY', ['.'], false],
    ['rg -r X KEY src', ['src'], false],
    ['rg --files src', ['src'], false],
    ['rg -e KEY', ['.'], false],
    // Options it does not know: the next word may be their value, so `.` is searched too.
    ['rg --frobnicate KEY src', ['src', '.'], false],
    ['grep -r $OPTS KEY src', ['KEY', 'src', '.'], false],
  ])('%s', (line, expected, follows) => {
    expect(folders(line)).toEqual({ folders: expected, follows });
  });

  it('is undefined for searches that do not recurse and for other commands', () => {
    expect(folders('grep KEY file.txt')).toBeUndefined();
    expect(folders('grep -d skip KEY src')).toBeUndefined();
    expect(folders('cat -r x')).toBeUndefined();
  });
});
