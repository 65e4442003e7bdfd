/**
 * The command line as commander sees it: every flag Yoke accepts, with help text. Parsing is
 * deliberately loose here (strings and booleans, repeated flags collected); `cli-options.ts`
 * validates the values and `argv-prepass.ts` has already normalized the forms and dropped unknown
 * flags by the time commander runs.
 */
import { Command, Option } from 'commander';
import { PERMISSION_MODES } from '../permissions/types';
import { subcommandsHelp } from './subcommands';
import { NO_EFFECT_FLAGS, UNAVAILABLE_FLAGS } from './unavailable';

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
  [
    '--include-hook-events',
    'stream-json: hook_started/hook_response frames for every hook (SessionStart always)',
  ],
  ['--replay-user-messages', 'stream-json input: echo user messages back on stdout'],
  ['--model <model>', 'model id or alias (opus, sonnet, haiku)'],
  ['--fallback-model <model>', 'model to switch to when the main one is overloaded'],
  ['--provider <provider>', 'model API: anthropic or openai (OpenAI-compatible servers)'],
  ['--max-turns <n>', 'stop after this many model responses'],
  ['--max-budget-usd <usd>', 'stop once the session has cost this much'],
  ['--task-budget <tokens>', 'token budget the model is told about for the task', { hidden: true }],
  ['--max-thinking-tokens <n>', 'enable extended thinking with this token budget (0 turns it off)'],
  ['--thinking <mode>', 'thinking: adaptive, enabled or disabled'],
  ['--thinking-display <mode>', 'how thinking is shown'],
  ['--effort <level>', 'reasoning effort: low, medium, high, xhigh, max'],
  ['--betas <list>', 'API beta headers to send', { repeat: true }],
  ['--system-prompt <text>', "replace Yoke's system prompt"],
  ['--append-system-prompt <text>', 'append to the system prompt'],
  [
    '--allowedTools, --allowed-tools <rules>',
    'permission rules to allow, e.g. "Bash(git log:*)" Read, or "Bash(git log:*),Read"',
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
  ['--permission-prompts <who>', 'who is asked when a call needs approval: host or none'],
  ['--dangerously-skip-permissions', 'allow every tool call without asking (bypassPermissions mode)'],
  ['--allow-dangerously-skip-permissions', 'allow switching into bypassPermissions mode later'],
  [
    '--trust',
    "apply this folder's project settings (allow rules, acceptEdits) for this run only; `yoke trust` records it",
  ],
  ['--json-schema <schema>', 'make the final answer a JSON object matching this JSON Schema'],
  ['--settings <file-or-json>', 'extra settings: a file path or a JSON object'],
  ['--managed-settings <json>', 'managed (policy) settings as JSON; they win over every other source'],
  ['--setting-sources <list>', 'which settings to load: user, project, local (empty for none)'],
  ['--project-config-root <dir>', 'where project settings are read from', { hidden: true }],
  ['--add-dir <dir>', 'another directory tools may use (repeatable)', { repeat: true }],
  ['--sandbox', 'run Bash commands in the OS sandbox (bubblewrap), whatever the settings say'],
  ['--no-sandbox', 'run Bash commands outside the sandbox (managed policy can still require it)'],
  ['--session-id <uuid>', 'use this session id'],
  ['-r, --resume [session]', "resume a session by id; without one, pick from this folder's sessions"],
  ['-c, --continue', 'continue the most recent session in this directory'],
  ['--fork-session', 'with --resume/--continue: continue in a new session'],
  ['--resume-session-at <uuid>', 'with --resume: drop the history after this message'],
  ['--resume-drops-turn <uuid>', 'with --resume: drop this turn'],
  ['--no-session-persistence', 'do not save the session to disk'],
  ['--no-auto-compact', 'never compact automatically; a full context ends the turn instead'],
  ['--session-mirror', 'mirror the transcript to the SDK host'],
  ['--mcp-config <json-or-file>', 'MCP servers to connect (repeatable)', { repeat: true }],
  ['--strict-mcp-config', 'use only the servers from --mcp-config'],
  ['--agents <json>', 'custom subagents as JSON'],
  ['--agent <name>', 'run as this agent'],
  [
    '-w, --worktree [name]',
    'work in a new worktree (git: .yoke/worktrees/<name>; or a WorktreeCreate hook makes it), removed at the end if unchanged',
  ],
  ['--coordinator', 'coordinator mode: the main agent plans and delegates to parallel workers'],
  ['--plugin-dir <dir>', 'load a plugin from this folder for this session (repeatable)', { repeat: true }],
  ['--plugin-dir-no-mcp', "with --plugin-dir: leave out those plugins' MCP servers"],
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

/** `(not available yet)` or `(accepted; no effect yet)` for the flags of unavailable.ts. */
function statusNote(flags: string): string {
  const long = flags.split(/[ ,]+/).find((part) => part.startsWith('--'));
  const unavailable = UNAVAILABLE_FLAGS.find((entry) => entry.flag === long);
  if (unavailable) return ` ${unavailable.helpNote ?? '(not available yet)'}`;
  return long !== undefined && NO_EFFECT_FLAGS.includes(long) ? ' (accepted; no effect yet)' : '';
}

const HELP_FOOTER = `
Commands:
${subcommandsHelp()}

Environment:
  ANTHROPIC_API_KEY                 Anthropic API key (ANTHROPIC_AUTH_TOKEN: a bearer token instead)
  ANTHROPIC_BASE_URL                another Anthropic-compatible endpoint (a proxy or gateway)
  ANTHROPIC_OPEN_TELEMETRY          true: the Anthropic SDK's OpenTelemetry spans (off by default)
  OPENAI_API_KEY, OPENAI_BASE_URL   OpenAI, or an OpenAI-compatible server (Ollama, vLLM, LM Studio)
  ANTHROPIC_MODEL                   the Anthropic model without --model (wins over the model setting)
  OPENAI_MODEL                      the OpenAI-compatible model without --model (else: the one model
                                    OPENAI_BASE_URL's server lists; gpt-4.1 on OpenAI)
  YOKE_HOME                         Yoke's settings and sessions folder (~/.yoke)
  CLAUDE_CONFIG_DIR                 Claude Code's folder, read for compatibility (~/.claude)
  YOKE_MANAGED_SETTINGS             the managed policy file (/etc/yoke/managed-settings.json)
  API_TIMEOUT_MS                    how long to wait for a model's first byte (setting apiTimeouts)
  ANTHROPIC_SMALL_FAST_MODEL        the fast model of WebFetch and auto mode (setting smallFastModel)
  YOKE_FAST_MODEL                   Yoke's name for it; wins over ANTHROPIC_SMALL_FAST_MODEL
  BASH_MAX_OUTPUT_LENGTH            characters of Bash output kept inline (setting bashOutputMaxChars)
  ENABLE_TOOL_SEARCH                auto (default), auto:N (% of window), true or false: defer tool schemas
  MCP_TIMEOUT                       how long an MCP server may take to start, in ms (30000)
  BROWSER                           what opens an MCP sign-in address in the interactive UI (else
                                    open, or xdg-open when DISPLAY or WAYLAND_DISPLAY is set)
  MCP_TOOL_TIMEOUT                  an MCP tool call's limit in ms, unless the server sets timeout
  YOKE_COORDINATOR_MODE=1           coordinator mode, as --coordinator (CLAUDE_CODE_COORDINATOR_MODE too)
  MCP_CLIENT_SECRET                 the secret of a server's oauth.clientId (pre-registered or client_credentials)
  CLAUDE_CODE_ENTRYPOINT            set by SDK hosts; their sessions are recorded as sdk-cli
  YOKE_CODE_CACHE=off               start without the V8 code cache
  USE_BUILTIN_RIPGREP=0             Grep and Glob use rg from PATH instead of the bundled ripgrep
  XDG_CACHE_HOME                    where the code cache goes when the install folder is read-only
  VISUAL, EDITOR                    the editor of Ctrl+G and /memory in the interactive UI
  NO_COLOR                          the interactive UI without colour

Unknown flags are ignored with a warning (newer SDKs pass flags Yoke does not have yet), except a
near miss of a flag that takes a value (--max-turn 3): that stops with the flag meant.`;

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
    const option = new Option(flags, `${description}${statusNote(flags)}`);
    if (options.repeat) option.argParser(collect);
    if (options.hidden) option.hideHelp();
    program.addOption(option);
  }
  program.addHelpText('after', HELP_FOOTER);
  program.action((prompt: string | undefined, raw: Record<string, unknown>) => handlers.onRoot(prompt, raw));
  return program;
}
