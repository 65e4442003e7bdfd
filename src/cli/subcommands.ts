/**
 * The management subcommands beside the agent itself: `yoke permissions list|remove <rule>`,
 * `yoke sessions list [--all]` and `yoke trust [dir] | --list | --remove [dir]`. They print plain
 * text and return an exit code.
 */
import { CliUsageError } from './errors';
import { stdout } from './std-streams';

export const SUBCOMMANDS = ['permissions', 'sessions', 'trust'] as const;

const USAGE = {
  permissions: 'usage: yoke permissions list | yoke permissions remove <rule>',
  sessions: 'usage: yoke sessions list [--all]',
};

export async function runSubcommand(
  argv: readonly string[],
  context: { cwd: string; env: Record<string, string | undefined> },
): Promise<number> {
  const [command, action, ...rest] = argv;
  const print = (line: string) => stdout.write(`${line}\n`);
  if (command === 'permissions') {
    const { runPermissionsList, runPermissionsRemove } = await import('./commands/permissions');
    if (action === 'list' && rest.length === 0) return runPermissionsList({ ...context, print });
    if (action === 'remove' && rest.length === 1 && rest[0]) {
      await runPermissionsRemove({ ...context, rule: rest[0], print });
      return 0;
    }
    throw new CliUsageError(USAGE.permissions);
  }
  if (command === 'sessions') {
    const { sessionsListCommand } = await import('./commands/sessions');
    const all = rest.length === 1 && rest[0] === '--all';
    if (action === 'list' && (rest.length === 0 || all))
      return sessionsListCommand({ ...context, all, write: (text) => stdout.write(text) });
    throw new CliUsageError(USAGE.sessions);
  }
  if (command === 'trust') {
    const { runTrustCommand } = await import('./commands/trust');
    const warn = (line: string) => process.stderr.write(`yoke: warning: ${line}\n`);
    return runTrustCommand(argv.slice(1), { ...context, print, warn });
  }
  throw new CliUsageError(`unknown command ${command}`);
}
