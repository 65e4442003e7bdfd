/**
 * The mock server's own tests: a fresh server for each test, closed after it whatever happened.
 */
import { afterEach } from 'vitest';
import type { ScenarioInput } from './scenario';
import { type MockServer, startMockServer } from './server';

/** Registers the clean-up; the returned function starts the test's server with its scenario. */
export function serverPerTest(): (scenario: ScenarioInput) => Promise<MockServer> {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (scenario) => {
    server = await startMockServer({ scenario });
    return server;
  };
}
