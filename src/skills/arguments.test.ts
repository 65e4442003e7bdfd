import { describe, expect, it } from 'vitest';
import { splitArguments, substituteArguments } from './arguments';

const base = { argumentNames: [], sessionId: 's-1', projectDir: '/repo' };

describe('argument substitution', () => {
  it('splits shell-style: quotes group words', () => {
    expect(splitArguments(`Button "src/ui kit" 'a b' c\\ d`)).toEqual(['Button', 'src/ui kit', 'a b', 'c d']);
  });

  it('fills $ARGUMENTS, $N and $ARGUMENTS[N] counting from 0, and leaves a missing index as written', () => {
    const out = substituteArguments('all=$ARGUMENTS first=$0 second=$ARGUMENTS[1] none=$5', {
      ...base,
      args: 'x "y z"',
    });
    expect(out).toBe('all=x "y z" first=x second=y z none=$5');
  });

  it('fills named arguments and the session, project and skill paths', () => {
    const out = substituteArguments(
      '$file in ${CLAUDE_PROJECT_DIR} (${CLAUDE_SESSION_ID}) ${CLAUDE_SKILL_DIR}',
      {
        ...base,
        argumentNames: ['file'],
        args: 'a.ts',
        skillDir: '/skills/x',
      },
    );
    expect(out).toBe('a.ts in /repo (s-1) /skills/x');
  });

  it('leaves ${CLAUDE_SKILL_DIR} in a command, and appends arguments a body does not use', () => {
    const out = substituteArguments('Use ${CLAUDE_SKILL_DIR}.', { ...base, args: 'extra words' });
    expect(out).toBe('Use ${CLAUDE_SKILL_DIR}.\n\nARGUMENTS: extra words');
    expect(substituteArguments('No args.', { ...base, args: '' })).toBe('No args.');
  });
});
