/**
 * The set-up a REPL test file shares: one mock model server, a Yoke home and a trusted project
 * folder for the file, and at most one tmux terminal per test (closed after it). `open` starts
 * the built CLI in the terminal; `READY` tells when the engine is up (`openReady` waits for it).
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/testing/mock-server';
import { mockEnv, runYoke, tempProject } from '../helpers';
import { Terminal, type TerminalOptions } from './tmux';

/** The status line names the model (it says "starting…" until the engine is built). */
export const READY = (screen: string): boolean =>
  /╰─+╯\n\s+\S+ · default mode/.test(screen) && !screen.includes('starting…');

export type TuiFixture = {
  readonly server: MockServer;
  readonly home: string;
  readonly cwd: string;
  env(): Record<string, string | undefined>;
  open(args?: string[], options?: Partial<TerminalOptions>): Promise<Terminal>;
  /** `open`, then waits for READY (a loaded machine can take a while to build the engine). */
  openReady(args?: string[], options?: Partial<TerminalOptions>): Promise<Terminal>;
};

/** Registers the file's hooks; `prepare` fills the project folder before it is trusted. */
export function useTuiFixture(prefix: string, prepare?: (cwd: string) => Promise<void>): TuiFixture {
  let terminal: Terminal | undefined;
  const fixture = {
    server: undefined as unknown as MockServer,
    home: '',
    cwd: '',
    // A person's terminal: CI and CONTINUOUS_INTEGRATION (set on CI machines) would make Ink's
    // chalk drop colours. A test that needs colours off sets NO_COLOR itself.
    env: () => ({
      ...mockEnv(fixture.server.url, fixture.home),
      CI: undefined,
      CONTINUOUS_INTEGRATION: undefined,
    }),
    async open(args: string[] = [], options: Partial<TerminalOptions> = {}) {
      terminal = await Terminal.start({ cwd: fixture.cwd, env: fixture.env(), args, ...options });
      return terminal;
    },
    async openReady(args: string[] = [], options: Partial<TerminalOptions> = {}) {
      const opened = await fixture.open(args, options);
      await opened.waitFor(READY, { timeoutMs: 45_000 });
      return opened;
    },
  };
  beforeAll(async () => {
    fixture.server = await startMockServer({ scenario: [] });
    fixture.home = await tempProject('yoke-home-');
    fixture.cwd = await tempProject(prefix);
    await prepare?.(fixture.cwd);
    await runYoke(['trust'], { cwd: fixture.cwd, env: fixture.env() });
  });
  afterAll(async () => {
    await fixture.server?.close();
  });
  afterEach(async () => {
    await terminal?.close();
    terminal = undefined;
  });
  return fixture;
}
