import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseSimpleYaml } from './simple-yaml';

/** Frontmatter the fast path must read exactly as the YAML parser does. */
const SAME = [
  'description: Create a git commit\nargument-hint: [message]\nallowed-tools: Bash(git add:*), Bash(git status:*)',
  'name: pdf\ndisable-model-invocation: true\nversion: 1.2\ncount: 3',
  'paths:\n  - src/api/**/*.ts\n  - "lib/*.ts"\nmodel: haiku',
  'allowed-tools: [Read, Grep, "Bash(ls:*)"]\ncontext: fork',
  '# a comment\ndescription: "Quoted: with a colon"\nempty:',
  "when_to_use: 'single quoted'",
];

/** Frontmatter beyond the subset: left to the parser. */
const HARDER = [
  'description: >\n  folded\n  text',
  'hooks:\n  PreToolUse:\n    - matcher: Bash',
  'description: has: a colon',
  'description: "escaped \\" quote"',
  'a: &anchor x\nb: *anchor',
  'description: x # trailing comment',
];

describe('the fast frontmatter reader', () => {
  it.each(SAME)('reads %j as the YAML parser does', (text) => {
    expect(parseSimpleYaml(text)).toEqual(parse(text));
  });

  it.each(HARDER)('leaves %j to the YAML parser', (text) => {
    expect(parseSimpleYaml(text)).toBeUndefined();
  });
});
