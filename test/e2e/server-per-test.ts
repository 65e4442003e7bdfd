/**
 * The set-up of e2e tests that each script their own model turns: a mock model server per test
 * (closed after it), a fresh project and a fresh Yoke home, and the environment that joins them.
 */
import { afterEach } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, tempProject } from './helpers';

export type ServerPerTest = {
  setUp(scenario: ScenarioInput): Promise<{ project: string; home: string; env: ReturnType<typeof mockEnv> }>;
  /** The current test's server (set up first). */
  readonly server: MockServer;
};

export function serverPerTest(): ServerPerTest {
  let current: MockServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    async setUp(scenario) {
      current = await startMockServer({ scenario });
      const project = await tempProject();
      const home = await tempProject('yoke-e2e-home-');
      return { project, home, env: mockEnv(current.url, home) };
    },
    get server() {
      if (!current) throw new Error('no mock server: call setUp first');
      return current;
    },
  };
}

/** A model turn that calls the Agent tool. */
export const agentCall = (input: Record<string, unknown>, id = 'toolu_agent1') => ({
  content: [{ type: 'tool_use' as const, id, name: 'Agent', input }],
});

/** A model turn that only says `text`. */
export const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });
