/** The line mode's permission question: every answer maps to the dialog's choices; unclear denies. */
import { describe, expect, it } from 'vitest';
import type { PermissionDecision } from '../../permissions/types';
import type { PendingPermission } from '../session/repl-session';
import { askPermission } from './line-permission';

async function answerWith(
  ...lines: (string | undefined)[]
): Promise<{ decision?: PermissionDecision; out: string }> {
  return answerFor('rm -rf build', ...lines);
}

async function answerFor(
  command: string,
  ...lines: (string | undefined)[]
): Promise<{ decision?: PermissionDecision; out: string }> {
  let decision: PermissionDecision | undefined;
  let out = '';
  const pending: PendingPermission = {
    id: 1,
    request: {
      toolName: 'Bash',
      input: { command },
      toolUseId: 't1',
      message:
        'Allow Bash: rm -rf build? Needs approval: rm -rf build is not read-only. Warning: rm -r deletes build and everything in it.',
      suggestions: ['Bash(rm -rf build)'],
      signal: new AbortController().signal,
    } as PendingPermission['request'],
    answer: (d) => {
      decision = d;
    },
  };
  const write = (text: string) => {
    out += text;
  };
  const input = {
    ask: async (question: string) => {
      write(question);
      return lines.shift();
    },
  };
  await askPermission(pending, input, write, '/p');
  return { ...(decision ? { decision } : {}), out };
}

describe('askPermission (line mode)', () => {
  it("shows the command's control characters as pictures", async () => {
    const { out } = await answerFor('echo ok\rrm -rf ~\x1b]0;t\x07', '3');
    expect(out).toContain('  echo ok␍rm -rf ~␛]0;t␇\n');
    expect(out).not.toMatch(/[\r\x1b\x07]/);
  });

  it('shows the command, why, the warning and the numbered choices', async () => {
    const { out } = await answerWith('1');
    expect(out).toContain('Permission needed: Bash command\n  rm -rf build\n');
    expect(out).toContain('  needs approval: rm -rf build is not read-only\n');
    expect(out).toContain('  WARNING: rm -r deletes build and everything in it\n');
    expect(out).toContain(
      "  2. Yes, and don't ask again for: Bash(rm -rf build) (saved in .yoke/settings.local.json)\n",
    );
  });

  it('maps 1, y, 2, 3 and n to the choices, and a note to a deny the model reads', async () => {
    expect((await answerWith('1')).decision?.behavior).toBe('allow');
    expect((await answerWith('y')).decision?.behavior).toBe('allow');
    expect((await answerWith('2')).decision).toMatchObject({
      behavior: 'allow',
      addRules: ['Bash(rm -rf build)'],
    });
    expect((await answerWith('3')).decision?.behavior).toBe('deny');
    expect((await answerWith('n')).decision?.behavior).toBe('deny');
    expect((await answerWith('4', 'use trash')).decision).toMatchObject({
      behavior: 'deny',
      message: 'The user denied this Bash call and said: use trash',
    });
    expect((await answerWith('keep it')).decision).toMatchObject({
      behavior: 'deny',
      message: 'The user denied this Bash call and said: keep it',
    });
  });

  it('an empty answer, an unknown number or the end of input denies', async () => {
    for (const answer of ['', '9', undefined]) {
      const { decision, out } = await answerWith(answer);
      expect(decision?.behavior).toBe('deny');
      expect(out.endsWith('  denied\n')).toBe(true);
    }
  });
});
