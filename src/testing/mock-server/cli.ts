/**
 * `yoke mock-server --scenario <file>`: runs the mock server as its own process, for end-to-end
 * tests and benchmarks that spawn the built CLI. It prints exactly one line, `MOCK_SERVER_URL=<url>`,
 * so a parent process can read the address, and runs until SIGTERM or SIGINT.
 */
import { loadScenarioFile, ScenarioError } from './scenario';
import { startMockServer } from './server';

export type MockServerCliOptions = { scenario: string; port: string | number; host: string };

/**
 * Resolves once the server has closed after a signal. A bad scenario file or port rejects with a
 * one-line message; the CLI's error reporter prints it to stderr and exits 1.
 */
export async function runMockServerCli(options: MockServerCliOptions): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ScenarioError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(options.port)}`);
  }
  const scenario = await loadScenarioFile(options.scenario);
  const server = await startMockServer({ scenario, port, host: options.host });
  process.stdout.write(`MOCK_SERVER_URL=${server.url}\n`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await server.close();
}
