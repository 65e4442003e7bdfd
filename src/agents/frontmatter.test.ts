import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseFrontmatter } from './frontmatter';

const file = (yaml: string) => `---\n${yaml}\n---\nYou review code.\n`;

describe('parseFrontmatter', () => {
  it.each([
    [
      'simple fields (read without the YAML parser)',
      'name: reviewer\ndescription: Reviews code\ntools: [Read, Grep]\nmaxTurns: 5',
    ],
    ['a block list', 'name: reviewer\ntools:\n  - Read\n  - Grep'],
    ['a block scalar (the YAML parser)', 'name: reviewer\ndescription: |\n  Reviews code.\n  Twice.'],
    ['quoting with escapes (the YAML parser)', 'name: "rev\\"iewer"\ndescription: x'],
  ])('reads %s as YAML does', async (_label, yaml) => {
    expect(await parseFrontmatter(file(yaml))).toEqual({ fields: parse(yaml), body: 'You review code.\n' });
  });

  it('says why invalid YAML is refused', async () => {
    expect(await parseFrontmatter(file('name: [unclosed'))).toEqual({
      problem: expect.stringMatching(/^its frontmatter is not valid YAML: /),
    });
  });

  it("names the file's own line: the second key repeated on the file's line 3", async () => {
    expect(await parseFrontmatter(file('name: reviewer\nname: "again"'))).toEqual({
      problem: 'its frontmatter is not valid YAML: Map keys must be unique at line 3, column 1',
    });
  });
});
