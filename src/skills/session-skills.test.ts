import { describe, expect, it } from 'vitest';
import { noopHooks } from '../hooks/types';
import { makeContext } from '../tools/test-support';
import { SessionSkills, untrustedNotice } from './session-skills';
import { promptSpec } from './test-support';
import type { PromptCommandSpec } from './types';

const spec = (name: string, fields: Partial<PromptCommandSpec> = {}) =>
  promptSpec({
    name,
    description: name,
    hasUserSpecifiedDescription: true,
    loadedFrom: 'commands',
    body: { kind: 'text', text: 'Body' },
    ...fields,
  });

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

  it('speaks of one command in the singular', () => {
    expect(untrustedNotice([spec('frontend:lint', { allowedTools: ['Bash(npm run lint:*)'] })], false)).toBe(
      'This folder is not trusted, so /frontend:lint runs without the tools and hooks its file grants ' +
        '(allowed-tools, hooks); trust it with `yoke trust` to allow them.',
    );
  });
});

describe('skillOverrides', () => {
  const specs = [
    spec('plain', { description: 'A plain skill', loadedFrom: 'skills' }),
    spec('terse', { description: 'A long description nobody needs', loadedFrom: 'skills' }),
    spec('mine', { description: 'Only for the user', loadedFrom: 'skills' }),
    spec('gone', { description: 'Turned off', loadedFrom: 'skills' }),
  ];
  const skills = new SessionSkills({
    specs,
    sessionId: 's',
    projectRoot: '/p',
    trusted: true,
    listingBudgetTokens: 1000,
    pipeline: () => ({ canUseTool: async () => ({ behavior: 'allow' }) as never, hooks: noopHooks }),
    overrides: { Terse: 'name-only', mine: 'user-invocable-only', gone: 'off', plain: 'on' },
  });

  it('lists name-only skills without their description and keeps user-only and off ones from the model', () => {
    expect(skills.fullListing()?.split('\n').slice(1)).toEqual(['- plain: A plain skill', '- terse']);
    expect(skills.forModel().map((s) => s.name)).toEqual(['plain', 'terse']);
  });

  it('lets the user run a user-invocable-only skill, not the model; an off one is not there at all', async () => {
    expect(skills.find('/mine')?.name).toBe('mine');
    await expect(skills.launch('mine', '', makeContext([]))).rejects.toThrow(
      'The skill "mine" can only be run by the user (/mine); skillOverrides sets it user-invocable-only.',
    );
    expect(skills.find('gone')).toBeUndefined();
    expect(skills.specs.map((s) => s.name)).not.toContain('gone');
    await expect(skills.launch('gone', '', makeContext([]))).rejects.toThrow('There is no skill "gone".');
  });
});
