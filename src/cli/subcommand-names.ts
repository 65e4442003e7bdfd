/**
 * The words that start a management subcommand rather than a session (cli/subcommands.ts), and
 * the mock model server's. In a module of their own: the entry reads them to tell a REPL start
 * from the others (cli/app-loader.ts) without loading the subcommands.
 */
export const SUBCOMMANDS = [
  'permissions',
  'sessions',
  'trust',
  'mcp',
  'plugin',
  'sandbox',
  'doctor',
] as const;

export const MOCK_SERVER_COMMAND = 'mock-server';
