/**
 * The management subcommands beside the agent itself: `yoke permissions list|remove <rule>`,
 * `yoke sessions [list] [--all]`, `yoke trust [dir] | --list | --remove [dir]`, `yoke mcp …`,
 * `yoke plugin …`, `yoke sandbox check` and `yoke doctor`. They print plain text and return an exit code;
 * `--help` after a command prints its forms. A mistyped command or verb gets the nearest one suggested instead
 * of being taken for a prompt.
 */
import { nearestName, typoBudget } from '../lib/edit-distance';
import { CliUsageError } from './errors';
import { stdout } from './std-streams';
import { SUBCOMMANDS } from './subcommand-names';

export { SUBCOMMANDS };

type Subcommand = (typeof SUBCOMMANDS)[number];

const isSubcommand = (word: string | undefined): word is Subcommand =>
  (SUBCOMMANDS as readonly (string | undefined)[]).includes(word);

const VERBS: Record<Subcommand, readonly string[]> = {
  permissions: ['list', 'remove'],
  sessions: ['list'],
  // `yoke trust` takes a folder, not a verb.
  trust: [],
  mcp: ['add', 'add-json', 'remove', 'list', 'get', 'serve', 'login'],
  plugin: ['install', 'list', 'enable', 'disable', 'remove', 'uninstall', 'marketplace'],
  sandbox: ['check'],
  // `yoke doctor` takes a run's model flags, not a verb.
  doctor: [],
};

const USAGE: Record<Subcommand, string> = {
  permissions: 'usage: yoke permissions list | yoke permissions remove <rule>',
  sessions: 'usage: yoke sessions [list] [--all]',
  trust: 'usage: yoke trust [dir] | yoke trust --list | yoke trust --remove [dir]',
  mcp: 'usage: yoke mcp add|add-json|remove|list|get|serve|login …',
  plugin: 'usage: yoke plugin install|list|enable|disable|remove|marketplace …',
  sandbox: 'usage: yoke sandbox check',
  doctor: 'usage: yoke doctor [--model <model>] [--provider <provider>] [--settings <file-or-json>]',
};

/** Each subcommand's forms and what they do: `yoke --help` lists them all, `yoke <command> --help` its own. */
const FORMS: Record<Subcommand, readonly (readonly [form: string, what: string])[]> = {
  permissions: [
    ['yoke permissions list', 'every permission rule with its source and file'],
    ['yoke permissions remove <rule>', 'revoke a rule from .yoke/settings.local.json'],
  ],
  trust: [
    ['yoke trust [dir]', 'trust a folder: its project settings may widen permissions'],
    ['yoke trust --list | --remove [dir]', "the trusted folders; take a folder's trust back"],
  ],
  sessions: [['yoke sessions [list] [--all]', 'saved sessions of this folder (or all), newest first']],
  mcp: [
    ['yoke mcp add|add-json|remove', 'configure MCP servers (-s local|project|user, -e, -H, -t)'],
    ['yoke mcp list | get <name>', 'connect to the configured MCP servers and show their status'],
    ['yoke mcp login <name>', 'sign in to an HTTP/SSE MCP server with OAuth'],
    ['yoke mcp serve [flags]', "Yoke's tools as an MCP server on stdio, under -p's permissions"],
  ],
  plugin: [
    ['yoke plugin install <plugin>', 'install name@marketplace, a git URL or a folder, and enable it'],
    ['yoke plugin list', 'installed plugins, enabled here or not, and what each brings'],
    ['yoke plugin enable|disable|remove', 'turn a plugin on or off (-s user|project|local), or remove it'],
    ['yoke plugin marketplace …', 'add|list|update|remove the marketplaces plugins install from'],
  ],
  sandbox: [['yoke sandbox check', 'what of the shell sandbox works on this machine']],
  doctor: [
    [
      'yoke doctor [--model m] [--provider p]',
      'check Node.js, ripgrep, git, the model API and key, settings, tools, the sandbox',
    ],
  ],
};

const formLines = (command: Subcommand) =>
  FORMS[command].map(([form, what]) => `  ${form}${' '.repeat(Math.max(2, 34 - form.length))}${what}`);

/** The subcommands for `yoke --help`, one line per form. */
export function subcommandsHelp(): string {
  return SUBCOMMANDS.flatMap(formLines).join('\n');
}

/** `yoke mcp --help`, `yoke mcp login -h`: help, not an error (a plugin verb has its own help). */
function asksForHelp(command: Subcommand, argv: readonly string[]): boolean {
  const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';
  return isHelp(argv[1]) || (command !== 'plugin' && isHelp(argv[2]));
}

/** Verbs are short: one slip (`lst`) is always worth a suggestion. */
const verbBudget = (verb: string) => Math.max(1, typoBudget(verb));

function badVerb(command: Subcommand, verb: string | undefined): CliUsageError {
  const near = verb === undefined ? undefined : nearestName(verb, VERBS[command], verbBudget);
  if (near)
    return new CliUsageError(
      `unknown command "${command} ${verb}"; did you mean \`yoke ${command} ${near}\`?`,
    );
  return new CliUsageError(USAGE[command]);
}

/**
 * When argv starts with a near miss of a subcommand (`yoke sesions list`) and is not a headless
 * run (which would take the word as its prompt), the error that suggests the command meant.
 */
export function subcommandTypo(argv: readonly string[]): CliUsageError | undefined {
  const first = argv[0];
  if (first === undefined || first.startsWith('-') || /\s/.test(first)) return undefined;
  if (argv.some((arg) => arg === '-p' || arg === '--print' || arg.startsWith('--print='))) return undefined;
  const near = nearestName(first, SUBCOMMANDS);
  return near ? new CliUsageError(`unknown command "${first}"; did you mean \`yoke ${near}\`?`) : undefined;
}

export async function runSubcommand(
  argv: readonly string[],
  context: { cwd: string; env: Record<string, string | undefined> },
): Promise<number> {
  const [command, action, ...rest] = argv;
  const print = (line: string) => stdout.write(`${line}\n`);
  if (isSubcommand(command) && asksForHelp(command, argv)) {
    // `yoke mcp add --help`: the configuring verbs' full syntax, which the overview leaves out.
    if (command === 'mcp' && ['add', 'add-json', 'remove', 'list', 'get'].includes(action ?? '')) {
      const { MCP_USAGE } = await import('./commands/mcp');
      print(MCP_USAGE.replace(/^usage:/, 'Usage:'));
      return 0;
    }
    print(['Usage:', ...formLines(command)].join('\n'));
    return 0;
  }
  if (command === 'permissions') {
    const { runPermissionsList, runPermissionsRemove } = await import('./commands/permissions');
    if (action === 'list' && rest.length === 0) return runPermissionsList({ ...context, print });
    if (action === 'remove' && rest.length === 1 && rest[0]) {
      await runPermissionsRemove({ ...context, rule: rest[0], print });
      return 0;
    }
    throw action === 'list' || action === 'remove'
      ? new CliUsageError(USAGE.permissions)
      : badVerb(command, action);
  }
  if (command === 'sessions') {
    // `yoke sessions` alone lists, like `yoke sessions list`.
    const [verb, ...flags] =
      action === undefined || action.startsWith('-') ? ['list', ...argv.slice(1)] : [action, ...rest];
    if (verb !== 'list') throw badVerb(command, verb);
    const all = flags.length === 1 && flags[0] === '--all';
    if (flags.length > 0 && !all) throw new CliUsageError(USAGE.sessions);
    const { sessionsListCommand } = await import('./commands/sessions');
    return sessionsListCommand({ ...context, all, write: (text) => stdout.write(text) });
  }
  if (command === 'trust') {
    const { runTrustCommand } = await import('./commands/trust');
    const warn = (line: string) => process.stderr.write(`yoke: warning: ${line}\n`);
    return runTrustCommand(argv.slice(1), { ...context, print, warn });
  }
  if (command === 'mcp') {
    if (action === undefined || !VERBS.mcp.includes(action)) throw badVerb(command, action);
    if (action === 'serve') {
      const { runMcpServe } = await import('./commands/mcp-serve');
      return runMcpServe(rest, {
        ...context,
        warn: (line) => process.stderr.write(`yoke: warning: ${line}\n`),
      });
    }
    if (action === 'login') {
      const { runMcpLogin } = await import('./commands/mcp-login');
      return runMcpLogin(rest, { ...context, print });
    }
    const { runMcpCommand } = await import('./commands/mcp');
    return runMcpCommand(argv.slice(1), { ...context, print });
  }
  if (command === 'plugin') {
    if (action === undefined || !VERBS.plugin.includes(action)) throw badVerb(command, action);
    const { runPluginCommand } = await import('./commands/plugin');
    return runPluginCommand(argv.slice(1), { ...context, print });
  }
  if (command === 'sandbox') {
    if (action !== 'check' || rest.length > 0)
      throw action === 'check' ? new CliUsageError(USAGE.sandbox) : badVerb(command, action);
    const { runSandboxCheck } = await import('./commands/sandbox');
    return runSandboxCheck({ ...context, print });
  }
  if (command === 'doctor') {
    const { runDoctor } = await import('./commands/doctor');
    return runDoctor(argv.slice(1), { ...context, print });
  }
  throw new CliUsageError(`unknown command ${command}`);
}
