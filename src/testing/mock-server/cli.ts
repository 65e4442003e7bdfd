export async function runMockServerCli(_opts: {
  scenario: string;
  port: string;
  host: string;
}): Promise<void> {
  throw new Error('mock server CLI is being written');
}
