import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagTable } from './argv-prepass';
import { CLAUDE_CODE_FLAGS } from './claude-code-flags';
import { buildProgram } from './program';

/** Options of git commands the SDK runs itself (`git status --porcelain …`), not CLI flags. */
const GIT_OPTIONS = new Set([
  '--porcelain',
  '--untracked-files',
  '--ignore-submodules',
  '--no-optional-locks',
]);

/** Every `--flag` string literal in the installed Agent SDK's `query()` bundle, which builds argv. */
function sdkFlags(): Set<string> {
  const sdk = join(import.meta.dirname, '../../node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs');
  const text = readFileSync(sdk, 'utf8');
  return new Set([...text.matchAll(/["'`](--[A-Za-z][A-Za-z0-9-]*)/g)].map((match) => match[1] as string));
}

describe('CLAUDE_CODE_FLAGS', () => {
  it('holds every flag the installed Agent SDK can pass that Yoke does not define', () => {
    const yoke = flagTable(buildProgram({ onRoot: () => {}, onMockServer: async () => {} }));
    const found = sdkFlags();
    // The scan must see the SDK's argv building at all, or the check below proves nothing.
    expect(found).toContain('--max-turns');
    const missing = [...found].filter(
      (f) => !GIT_OPTIONS.has(f) && !yoke.has(f) && !CLAUDE_CODE_FLAGS.has(f),
    );
    expect(missing).toEqual([]);
  });
});
