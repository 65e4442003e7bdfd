import { describe, expect, it } from 'vitest';
import { listingLines } from './listing';
import { promptSpec } from './test-support';
import { isModelInvocable, matchesPaths, PathActivation } from './visibility';

const spec = promptSpec;

describe("the Skill tool's filter (getSkillToolCommands)", () => {
  it('offers skills, bundled skills and command files, never one that disables model invocation', () => {
    expect(isModelInvocable(spec({ loadedFrom: 'skills' }))).toBe(true);
    expect(isModelInvocable(spec({ loadedFrom: 'bundled' }))).toBe(true);
    expect(isModelInvocable(spec({ loadedFrom: 'commands' }))).toBe(true);
    expect(isModelInvocable(spec({ loadedFrom: 'skills', disableModelInvocation: true }))).toBe(false);
  });

  it('offers a plugin or MCP prompt only with a description of its own or when_to_use', () => {
    expect(isModelInvocable(spec({ loadedFrom: 'plugin' }))).toBe(false);
    expect(isModelInvocable(spec({ loadedFrom: 'plugin', hasUserSpecifiedDescription: true }))).toBe(true);
    expect(isModelInvocable(spec({ loadedFrom: 'mcp', whenToUse: 'when asked' }))).toBe(true);
  });
});

describe('paths', () => {
  it('matches globs relative to the project root, never outside it', () => {
    expect(matchesPaths(['src/api/**/*.ts'], '/repo/src/api/v1/users.ts', '/repo')).toBe(true);
    expect(matchesPaths(['src/api/**/*.ts'], '/repo/src/web/app.ts', '/repo')).toBe(false);
    expect(matchesPaths(['*.sql'], '/repo/db/schema.sql', '/repo')).toBe(true);
    expect(matchesPaths(['*.sql'], '/elsewhere/schema.sql', '/repo')).toBe(false);
  });

  it('unlocks a path-gated skill once a matching file is touched', () => {
    const gated = spec({ name: 'api', paths: ['src/api/**'] });
    const activation = new PathActivation('/repo');
    expect(activation.isVisible(gated)).toBe(false);
    expect(activation.touch([gated], ['/repo/README.md'])).toEqual([]);
    expect(activation.touch([gated], ['/repo/src/api/a.ts'])).toEqual(['api']);
    expect(activation.isVisible(gated)).toBe(true);
  });
});

describe('the listing', () => {
  it('fits its budget: what does not fit is named only', () => {
    const specs = Array.from({ length: 40 }, (_, i) => spec({ name: `s${i}`, description: 'd'.repeat(200) }));
    const lines = listingLines(specs, 500);
    expect(lines.join('\n').length).toBeLessThanOrEqual(500 * 4 + 400);
    expect(lines.at(-1)).toMatch(/^- (also: s\d+|and \d+ more)/);
  });
});
