import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CliOptions } from '../../cli/cli-options';
import type { SessionSetup } from '../../cli/session-setup';
import { createCommandRegistry } from '../../commands/registry';
import { createCommandHost } from './command-host';
import { ReplSession } from './repl-session';

afterEach(() => {
  vi.useRealTimers();
});

describe('the REPL command host', () => {
  it("times /cost's session duration on the monotonic clock: setting the clock back does not make it negative", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:00Z'));
    // Only what cost() reads of the engine: a session with no spending yet; an Anthropic selection
    // (no model list to offer /model).
    const setup = {
      engine: { sessionId: 's1', sessionServices: undefined },
      selection: { providerName: 'anthropic' },
    } as unknown as SessionSetup;
    const host = createCommandHost({
      options: { sessionPersistence: false } as CliOptions,
      env: {},
      cwd: tmpdir(),
      setup,
      commands: createCommandRegistry(),
      session: new ReplSession(),
      openInEditor: async () => ({ opened: false, reason: 'none' }),
      columns: () => 80,
      signal: new AbortController().signal,
      startedAt: performance.now(),
    });
    vi.setSystemTime(new Date('2020-01-01T00:00:00Z'));
    const duration = host.cost().sessionDurationMs;
    expect(duration).toBeGreaterThanOrEqual(0);
    expect(duration).toBeLessThan(60_000);
  });
});
