/**
 * The command line as commander sees it: every flag Yoke accepts, with help text. Parsing is
 * deliberately loose here (strings and booleans, repeated flags collected); `cli-options.ts`
 * validates the values and `argv-prepass.ts` has already normalized the forms and dropped unknown
 * flags by the time commander runs.
 */
import { Command, Option } from 'commander';
import { PERMISSION_MODES } from '../permissions/types';

/** Collects every occurrence of a repeatable flag. */
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

type FlagSpec = [flags: string, description: string, options?: { repeat?: boolean; hidden?: boolean }];

const FLAGS: FlagSpec[] = [
  ['-p, --print', 'answer one prompt without the interactive UI, then exit'],
  [
    '--output-format <format>',
    'with -p: text (default), json (one result object) or stream-json (one JSON per line)',
  ],
  ['--input-format <format>', 'with -p: text (default) or stream-json (SDK messages on stdin)'],
  ['--verbose', 'json: print every message as an array; required for stream-json with -p'],
  ['--include-partial-messages', 'stream-json: also emit stream_event frames as the model writes'],
  ['--include-hook-events', 'stream-json: also emit hook lifecycle messages'],
  ['--replay-user-messages', 'stream-json input: echo user messages back on stdout', { hidden: true }],
  ['--model <model>', 'model id or alias (opus, sonnet, haiku)'],
  ['--fallback-model <model>', 'model to switch to when the main one is overloaded'],
  ['--provider <provider>', 'model API: anthropic or openai (OpenAI-compatible servers)'],
  ['--max-turns <n>', 'stop after this many model responses'],
  ['--max-budget-usd <usd>', 'stop once the session has cost this much'],
  ['--task-budget <tokens>', 'token budget the model is told about for the task', { hidden: true }],
  ['--max-thinking-tokens <n>', 'enable extended thinking with this token budget (0 turns it off)'],
  ['--thinking <mode>', 'thinking: adaptive, enabled or disabled'],
  ['--thinking-display <mode>', 'how thinking is shown', { hidden: true }],
  ['--effort <level>', 'reasoning effort: low, medium, high, xhigh, max'],
  ['--betas <list>', 'API beta headers to send', { repeat: true, hidden: true }],
  ['--system-prompt <text>', "replace Yoke's system prompt"],
  ['--append-system-prompt <text>', 'append to the system prompt'],
  [
    '--allowedTools, --allowed-tools <rules>',
    'permission rules to allow, e.g. "Bash(git log:*),Read"',
    { repeat: true },
  ],
  [
    '--disallowedTools, --disallowed-tools <rules>',
    'permission rules to deny; a bare tool name removes the tool',
    { repeat: true },
  ],
  [
    '--tools <names>',
    'the built-in tools to offer: "" for none, "default", or a list such as "Read,Grep"',
    { repeat: true },
  ],
  ['--permission-mode <mode>', `permission mode: ${PERMISSION_MODES.join(', ')}`],
  ['--permission-prompt-tool <tool>', 'who answers permission prompts: "stdio" (the SDK host)'],
  ['--permission-prompts <who>', 'host or none', { hidden: true }],
  ['--dangerously-skip-permissions', 'allow every tool call without asking (bypassPermissions mode)'],
  ['--allow-dangerously-skip-permissions', 'allow switching into bypassPermissions mode later'],
  [
    '--trust',
    "apply this folder's project settings (allow rules, acceptEdits) for this run only; `yoke trust` records it",
  ],
  ['--json-schema <schema>', 'make the final answer a JSON object matching this JSON Schema'],
  ['--settings <file-or-json>', 'extra settings: a file path or a JSON object'],
  ['--managed-settings <json>', 'managed (policy) settings as JSON', { hidden: true }],
  ['--setting-sources <list>', 'which settings to load: user, project, local (empty for none)'],
  ['--project-config-root <dir>', 'where project settings are read from', { hidden: true }],
  ['--add-dir <dir>', 'another directory tools may use (repeatable)', { repeat: true }],
  ['--session-id <uuid>', 'use this session id'],
  ['-r, --resume <session>', 'resume a session by id'],
  ['-c, --continue', 'continue the most recent session in this directory'],
  ['--fork-session', 'with --resume/--continue: continue in a new session'],
  ['--resume-session-at <uuid>', 'with --resume: drop the history after this message'],
  ['--resume-drops-turn <uuid>', 'with --resume: drop this turn', { hidden: true }],
  ['--no-session-persistence', 'do not save the session to disk'],
  ['--no-auto-compact', 'never compact automatically; a full context ends the turn instead'],
  ['--session-mirror', 'mirror the transcript to the SDK host', { hidden: true }],
  ['--mcp-config <json-or-file>', 'MCP servers to connect (repeatable)', { repeat: true }],
  ['--strict-mcp-config', 'use only the servers from --mcp-config'],
  ['--agents <json>', 'custom subagents as JSON'],
  ['--agent <name>', 'run as this agent', { hidden: true }],
  ['--plugin-dir <dir>', 'load a plugin from this folder', { repeat: true, hidden: true }],
  ['--plugin-dir-no-mcp', 'skip MCP servers of --plugin-dir plugins', { hidden: true }],
  ['--bare', 'minimal mode: no hooks, memory files, plugins or MCP discovery'],
  ['--await-initialize', 'stream-json: wait for the initialize request', { hidden: true }],
  [
    '--initialize-fields <list>',
    'stream-json: fields that arrive in initialize',
    { repeat: true, hidden: true },
  ],
  [
    '--managed-settings-in-initialize',
    'stream-json: managed settings arrive in initialize',
    { hidden: true },
  ],
  ['-d, --debug [filter]', 'write debug lines to stderr and print stack traces for errors'],
  ['--debug-file <path>', 'write debug lines to this file instead of stderr'],
];

export type ProgramHandlers = {
  /** Called with the positional prompt and commander's raw option values. */
  onRoot(prompt: string | undefined, raw: Record<string, unknown>): void;
  onMockServer(opts: { scenario: string; port: string; host: string }): Promise<void>;
};

export function buildProgram(handlers: ProgramHandlers): Command {
  const program = new Command()
    .name('yoke')
    .description('Yoke: a coding agent for your terminal.')
    .usage('[options] [prompt]')
    .version(`${YOKE_VERSION} (Yoke)`, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .allowUnknownOption()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
      outputError: (s, write) => write(`yoke: ${s.replace(/^error: /, '')}`),
    });

  program
    .command('mock-server', { hidden: true })
    .description('run the scripted mock model server (for tests and benchmarks)')
    .requiredOption('--scenario <file>', 'scenario file (JSON or YAML)')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .action(handlers.onMockServer);

  program.argument('[prompt]', 'what to ask; read from stdin when omitted with -p');
  for (const [flags, description, options = {}] of FLAGS) {
    const option = new Option(flags, description);
    if (options.repeat) option.argParser(collect);
    if (options.hidden) option.hideHelp();
    program.addOption(option);
  }
  program.addHelpText(
    'after',
    [
      '',
      'Commands:',
      '  yoke permissions list             every permission rule with its source and file',
      '  yoke permissions remove <rule>    revoke a rule from .yoke/settings.local.json',
      '  yoke trust [dir]                  trust a folder: its project settings may widen permissions',
      "  yoke trust --list | --remove [dir]  the trusted folders; take a folder's trust back",
      '  yoke sessions list [--all]        saved sessions of this folder (or all), newest first',
    ].join('\n'),
  );
  program.action((prompt: string | undefined, raw: Record<string, unknown>) => handlers.onRoot(prompt, raw));
  return program;
}
