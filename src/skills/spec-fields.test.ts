import { describe, expect, it } from 'vitest';
import { specFields } from './spec-fields';

describe('reading the frontmatter keys of a command', () => {
  it('reads the keys a file has, reports wrong types, and takes keys that name Object members as unknown', () => {
    const problems: string[] = [];
    const fields = specFields(
      {
        description: 'Deploy',
        'allowed-tools': 'Bash(git push:*), Read',
        'disable-model-invocation': 'yes',
        model: 'inherit',
        effort: 'extreme',
        constructor: 'x',
        toString: 'y',
        // An own key, as a YAML parser makes it.
        ...Object.fromEntries([['__proto__', 'z']]),
      },
      'first line',
      problems,
    );
    expect(fields).toMatchObject({
      description: 'Deploy',
      hasUserSpecifiedDescription: true,
      allowedTools: ['Bash(git push:*)', 'Read'],
      disableModelInvocation: false,
      userInvocable: true,
      context: 'inline',
    });
    expect(fields.model).toBeUndefined();
    expect(fields.effort).toBeUndefined();
    expect(problems).toEqual([
      '"disable-model-invocation" should be true or false',
      '"effort" should be low, medium, high, xhigh, max',
    ]);
    expect(specFields({ effort: 'max' }, 'first line', []).effort).toBe('max');
    expect(specFields({}, 'first line', []).description).toBe('first line');
  });
});
