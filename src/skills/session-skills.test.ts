import { describe, expect, it } from 'vitest';
import { untrustedNotice } from './session-skills';
import type { PromptCommandSpec } from './types';

function spec(name: string, fields: Partial<PromptCommandSpec> = {}): PromptCommandSpec {
  return {
    name,
    description: name,
    hasUserSpecifiedDescription: true,
    argumentNames: [],
    allowedTools: [],
    disableModelInvocation: false,
    userInvocable: true,
    context: 'inline',
    paths: [],
    source: 'project',
    loadedFrom: 'commands',
    body: { kind: 'text', text: 'Body' },
    ...fields,
  };
}

describe('the untrusted-folder notice', () => {
  it("names the project's widening commands in one line, counting those beyond five", () => {
    const widening = Array.from({ length: 8 }, (_, i) => spec(`c${i}`, { allowedTools: ['Read'] }));
    const notice = untrustedNotice(
      [...widening, spec('plain'), spec('mine', { source: 'user', allowedTools: ['Read'] })],
      false,
    );
    expect(notice).toMatch(
      /^This folder is not trusted, so \/c0, \/c1, \/c2, \/c3, \/c4 and 3 more run without/,
    );
    expect(notice).not.toContain('\n');
    expect(untrustedNotice(widening, true)).toBeUndefined();
    expect(untrustedNotice([spec('plain')], false)).toBeUndefined();
  });
});
