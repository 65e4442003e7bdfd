import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { proposedHunks } from './proposed-diff';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'yoke-proposed-')), 'app.ts');
  writeFileSync(path, text);
  return path;
}

const lines = (hunks: ReturnType<typeof proposedHunks>) => (hunks ?? []).flatMap((h) => h.lines);

describe('the diff a permission question shows', () => {
  it('an Edit against the file as it is: its change with the lines around it, at its place', () => {
    const path = file('one\ntwo\nthree\nfour\nfive\n');
    const hunks = proposedHunks('Edit', { file_path: path, old_string: 'three', new_string: 'THREE' });
    expect(lines(hunks)).toEqual([' one', ' two', '-three', '+THREE', ' four', ' five']);
    expect(hunks?.[0]?.oldStart).toBe(1);
  });

  it('replace_all changes every occurrence; a MultiEdit applies its edits in order', () => {
    const path = file('a\nb\na\n');
    expect(
      lines(proposedHunks('Edit', { file_path: path, old_string: 'a', new_string: 'c', replace_all: true })),
    ).toEqual(['-a', '+c', ' b', '-a', '+c']);
    const multi = proposedHunks('MultiEdit', {
      file_path: path,
      edits: [
        { old_string: 'b', new_string: 'x' },
        { old_string: 'x', new_string: 'y' },
      ],
    });
    expect(lines(multi)).toEqual([' a', '-b', '+y', ' a']);
  });

  it('a $ in the new text is taken literally', () => {
    const path = file('price\n');
    expect(
      lines(proposedHunks('Edit', { file_path: path, old_string: 'price', new_string: "$& '$1'" })),
    ).toEqual(['-price', "+$& '$1'"]);
  });

  it("falls back to the call's own strings for a file that is not there or text it does not hold", () => {
    const missing = join(tmpdir(), 'yoke-no-such-dir', 'x.ts');
    expect(lines(proposedHunks('Edit', { file_path: missing, old_string: 'a', new_string: 'b' }))).toContain(
      '+b',
    );
    const path = file('one\n');
    expect(lines(proposedHunks('Edit', { file_path: path, old_string: 'zzz', new_string: 'b' }))).toContain(
      '-zzz',
    );
  });

  it('a Write over an existing file shows what changes in it', () => {
    const path = file('keep\nold\n');
    expect(lines(proposedHunks('Write', { file_path: path, content: 'keep\nnew\n' }))).toEqual([
      ' keep',
      '-old',
      '+new',
    ]);
  });
});
