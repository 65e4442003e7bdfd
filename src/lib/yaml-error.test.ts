import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { yamlErrorReason } from './yaml-error';

const errorOf = (text: string): unknown => {
  try {
    parse(text);
  } catch (error) {
    return error;
  }
  throw new Error('parsed');
};

describe('yamlErrorReason', () => {
  it("counts the parser's line from the file's start and drops the code frame", () => {
    // A frontmatter block after its `---` line: the unterminated quote runs to the end (YAML line 4).
    const error = errorOf('name: a\ndescription: "unterminated\ntools: Read\n');
    expect(yamlErrorReason(error, 1)).toBe('Missing closing "quote at line 5, column 1');
    expect(yamlErrorReason(errorOf('key: value\nkey: again\n'), 1)).toBe(
      'Map keys must be unique at line 3, column 1',
    );
  });

  it('leaves a message without a position as it is', () => {
    expect(yamlErrorReason(new Error('something odd'), 1)).toBe('something odd');
    expect(yamlErrorReason('plain', 1)).toBe('plain');
  });
});
