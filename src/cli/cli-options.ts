/**
 * The validated command line: commander's raw strings → one typed `CliOptions`. A bad value is
 * one `CliUsageError` line naming the flag and what it accepts.
 */
import { locateJsonError } from '../config/json-error';
import { nearestName } from '../lib/edit-distance';
import { isJsonObject } from '../lib/json-object';
import { EFFORT_LEVELS, type EffortLevel } from '../model/effort';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types';
import { CliUsageError } from './errors';
import { splitCommaList, splitRuleList } from './list-values';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const INPUT_FORMATS = ['text', 'stream-json'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];
export const SETTING_SOURCES = ['user', 'project', 'local'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];
export const THINKING_MODES = ['adaptive', 'enabled', 'disabled'] as const;
export type ThinkingMode = (typeof THINKING_MODES)[number];

export type CliOptions = {
  /** Headless: `-p`, or `--input-format stream-json` (the SDK never passes `-p`). */
  print: boolean;
  prompt?: string;
  outputFormat: OutputFormat;
  inputFormat: InputFormat;
  verbose: boolean;
  includePartialMessages: boolean;
  includeHookEvents: boolean;
  replayUserMessages: boolean;
  model?: string;
  fallbackModel?: string;
  provider?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  taskBudget?: number;
  maxThinkingTokens?: number;
  thinking?: ThinkingMode;
  thinkingDisplay?: string;
  effort?: EffortLevel;
  betas: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** Permission rule strings, e.g. `Bash(git log:*)`. */
  allowedTools: string[];
  disallowedTools: string[];
  /** `--tools`: undefined = the default set, [] = none, else tool names (legacy aliases allowed). */
  tools?: string[];
  permissionMode?: PermissionMode;
  /** `--permission-prompt-tool`: "stdio" when an SDK host answers prompts. */
  permissionPromptTool?: string;
  permissionPrompts?: 'host' | 'none';
  dangerouslySkipPermissions: boolean;
  allowDangerouslySkipPermissions: boolean;
  /** `--trust`: treat the folder as trusted for this run only (nothing is recorded). */
  trust: boolean;
  jsonSchema?: Record<string, unknown>;
  /** `--settings`: a file path or inline JSON, as given. */
  settings?: string;
  managedSettings?: string;
  /** undefined = all sources; [] = none (`--setting-sources=`). */
  settingSources?: SettingSource[];
  projectConfigRoot?: string;
  addDirs: string[];
  /** `--sandbox` (true) / `--no-sandbox` (false); undefined lets the settings decide. */
  sandbox?: boolean;
  sessionId?: string;
  resume?: string;
  /** `--resume` without an id: the REPL opens its picker of this folder's sessions. */
  resumePicker?: boolean;
  continue: boolean;
  forkSession: boolean;
  resumeSessionAt?: string;
  resumeDropsTurn?: string;
  sessionPersistence: boolean;
  /** `--no-auto-compact`: never summarize automatically; a full context ends the turn instead. */
  autoCompact: boolean;
  sessionMirror: boolean;
  /** Each `--mcp-config` value as given (JSON or a file path). */
  mcpConfigs: string[];
  strictMcpConfig: boolean;
  agents?: Record<string, Record<string, unknown>>;
  agent?: string;
  /** `--worktree` (true: a random name) or `--worktree=name`: start the session in a git worktree. */
  worktree?: string | true;
  /** `--coordinator`: the main agent only delegates to workers (also YOKE_COORDINATOR_MODE=1). */
  coordinator: boolean;
  pluginDirs: string[];
  pluginDirNoMcp: boolean;
  bare: boolean;
  awaitInitialize: boolean;
  initializeFields: string[];
  managedSettingsInInitialize: boolean;
  debug: boolean;
  debugFilter?: string;
  debugFile?: string;
};

function oneOf<T extends string>(flag: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly unknown[]).includes(value)) return value as T;
  const meant = typeof value === 'string' ? nearestName(value, allowed) : undefined;
  const hint = meant === undefined ? '' : `; did you mean ${meant}?`;
  throw new CliUsageError(
    `${flag} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}${hint}).`,
  );
}

function wholeNumber(flag: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isInteger(n) && n >= min) return n;
  throw new CliUsageError(
    `${flag} must be a whole number of at least ${min} (got ${JSON.stringify(value)}).`,
  );
}

function positiveNumber(flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(n) && n > 0) return n;
  throw new CliUsageError(`${flag} must be a number above 0 (got ${JSON.stringify(value)}).`);
}

function jsonObject(flag: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(`${flag} is not valid JSON: ${jsonErrorPlace(text, error as Error)}.`);
  }
  if (isJsonObject(parsed)) return parsed;
  const kind = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`;
  throw new CliUsageError(`${flag} must be a JSON object (got ${kind}).`);
}

/** Where JSON text went wrong, and the text from there: `column 12: expected ',' or '}' (at "x}")`. */
function jsonErrorPlace(text: string, error: Error): string {
  const where = locateJsonError(text);
  if (!where) return error.message;
  const line = text.split('\n')[where.line - 1] ?? '';
  const rest = line.slice(where.column - 1);
  const at =
    rest === '' ? 'at the end' : `at ${JSON.stringify(rest.length > 24 ? `${rest.slice(0, 24)}…` : rest)}`;
  const place = where.line > 1 ? `line ${where.line}, column ${where.column}` : `column ${where.column}`;
  return `${place}: ${where.message} (${at})`;
}

function agentsJson(value: unknown): Record<string, Record<string, unknown>> | undefined {
  const agents = jsonObject('--agents', value);
  if (agents === undefined) return undefined;
  for (const [name, definition] of Object.entries(agents)) {
    if (!definition || typeof definition !== 'object' || Array.isArray(definition)) {
      throw new CliUsageError(`--agents: the definition of "${name}" must be a JSON object.`);
    }
  }
  return agents as Record<string, Record<string, unknown>>;
}

function toolsList(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const names = splitRuleList(values);
  return names.includes('default') ? undefined : names;
}

function settingSources(value: unknown): SettingSource[] | undefined {
  if (value === undefined) return undefined;
  return splitCommaList([String(value)]).map((source) => {
    const valid = oneOf('--setting-sources', source, SETTING_SOURCES);
    return valid as SettingSource;
  });
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const list = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? (value as string[]) : undefined;

/** Turns commander's raw values into `CliOptions`, or throws one `CliUsageError`. */
export function toCliOptions(prompt: string | undefined, raw: Record<string, unknown>): CliOptions {
  const inputFormat = oneOf('--input-format', raw.inputFormat, INPUT_FORMATS) ?? 'text';
  const options: CliOptions = {
    print: raw.print === true || inputFormat === 'stream-json',
    prompt,
    outputFormat: oneOf('--output-format', raw.outputFormat, OUTPUT_FORMATS) ?? 'text',
    inputFormat,
    verbose: raw.verbose === true,
    includePartialMessages: raw.includePartialMessages === true,
    includeHookEvents: raw.includeHookEvents === true,
    replayUserMessages: raw.replayUserMessages === true,
    model: str(raw.model),
    fallbackModel: str(raw.fallbackModel),
    provider: str(raw.provider),
    maxTurns: wholeNumber('--max-turns', raw.maxTurns, 1),
    maxBudgetUsd: positiveNumber('--max-budget-usd', raw.maxBudgetUsd),
    taskBudget: wholeNumber('--task-budget', raw.taskBudget, 1),
    maxThinkingTokens: wholeNumber('--max-thinking-tokens', raw.maxThinkingTokens, 0),
    thinking: oneOf('--thinking', raw.thinking, THINKING_MODES),
    thinkingDisplay: str(raw.thinkingDisplay),
    effort: oneOf('--effort', raw.effort, EFFORT_LEVELS),
    betas: splitCommaList(list(raw.betas)),
    systemPrompt: str(raw.systemPrompt),
    appendSystemPrompt: str(raw.appendSystemPrompt),
    allowedTools: splitRuleList(list(raw.allowedTools)),
    disallowedTools: splitRuleList(list(raw.disallowedTools)),
    tools: toolsList(list(raw.tools)),
    permissionMode: oneOf('--permission-mode', raw.permissionMode, PERMISSION_MODES),
    permissionPromptTool: str(raw.permissionPromptTool),
    permissionPrompts: oneOf('--permission-prompts', raw.permissionPrompts, ['host', 'none'] as const),
    dangerouslySkipPermissions: raw.dangerouslySkipPermissions === true,
    allowDangerouslySkipPermissions: raw.allowDangerouslySkipPermissions === true,
    trust: raw.trust === true,
    jsonSchema: jsonObject('--json-schema', raw.jsonSchema),
    settings: str(raw.settings),
    managedSettings: str(raw.managedSettings),
    settingSources: settingSources(raw.settingSources),
    projectConfigRoot: str(raw.projectConfigRoot),
    addDirs: splitCommaList(list(raw.addDir)),
    sandbox: typeof raw.sandbox === 'boolean' ? raw.sandbox : undefined,
    sessionId: str(raw.sessionId),
    resume: str(raw.resume),
    resumePicker: raw.resume === true,
    continue: raw.continue === true,
    forkSession: raw.forkSession === true,
    resumeSessionAt: str(raw.resumeSessionAt),
    resumeDropsTurn: str(raw.resumeDropsTurn),
    sessionPersistence: raw.sessionPersistence !== false,
    autoCompact: raw.autoCompact !== false,
    sessionMirror: raw.sessionMirror === true,
    mcpConfigs: list(raw.mcpConfig) ?? [],
    strictMcpConfig: raw.strictMcpConfig === true,
    agents: agentsJson(raw.agents),
    agent: str(raw.agent),
    worktree: raw.worktree === true ? true : str(raw.worktree),
    coordinator: raw.coordinator === true,
    pluginDirs: list(raw.pluginDir) ?? [],
    pluginDirNoMcp: raw.pluginDirNoMcp === true,
    bare: raw.bare === true,
    awaitInitialize: raw.awaitInitialize === true,
    initializeFields: splitCommaList(list(raw.initializeFields)),
    managedSettingsInInitialize: raw.managedSettingsInInitialize === true,
    debug: raw.debug !== undefined,
    debugFilter: str(raw.debug),
    debugFile: str(raw.debugFile),
  };
  checkCombinations(options);
  return options;
}

/** Flag combinations that cannot work, as the real CLI reports them. */
export function checkCombinations(options: CliOptions): void {
  if (options.inputFormat === 'stream-json' && options.outputFormat !== 'stream-json') {
    throw new CliUsageError('--input-format=stream-json requires --output-format=stream-json.');
  }
  if (options.print && options.outputFormat === 'stream-json' && !options.verbose) {
    throw new CliUsageError('When using --print, --output-format=stream-json requires --verbose.');
  }
  if (options.includePartialMessages && (!options.print || options.outputFormat !== 'stream-json')) {
    throw new CliUsageError('--include-partial-messages requires --print and --output-format=stream-json.');
  }
  if (options.print && options.resumePicker) {
    throw new CliUsageError(
      '--resume needs a session id with --print; `yoke sessions` lists them (without -p, yoke --resume opens a picker).',
    );
  }
}
