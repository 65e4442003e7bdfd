/**
 * The parts of the QueryEngine's config that follow from the options and settings alone: the
 * run's limits and thinking, the context management switches, the transcript, the nested memory
 * files and what `system/init.apiKeySource` says.
 */
import { currentGitBranch } from '../config/git-branch';
import type { Settings } from '../config/settings-schema';
import type { QueryEngineConfig } from '../engine/query-engine-config';
import type { ModelSelection } from '../model/select';
import { type ThinkingConfig, thinkingForBudget } from '../model/types';
import type { ResolvedSession } from '../session/resume';
import type { CliOptions } from './cli-options';
import type { SessionCommands } from './session-commands';
import { autoCompactEnabled, contextStages, type Env, type SessionSettings } from './session-settings';

/** `--max-thinking-tokens N` → enabled with that budget (0 → off); `--thinking` otherwise. */
export function thinkingConfig(
  options: Pick<CliOptions, 'thinking' | 'maxThinkingTokens'>,
): ThinkingConfig | undefined {
  if (options.thinking === 'disabled') return { type: 'disabled' };
  if (options.maxThinkingTokens !== undefined) return thinkingForBudget(options.maxThinkingTokens);
  return options.thinking === undefined ? undefined : { type: 'adaptive' };
}

/** What `system/init.apiKeySource` reports. */
export function apiKeySource(selection: Pick<ModelSelection, 'providerName'>, env: Env): string {
  const variable = selection.providerName === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  if (env[variable]?.trim()) return variable;
  if (selection.providerName === 'anthropic' && env.ANTHROPIC_AUTH_TOKEN?.trim())
    return 'ANTHROPIC_AUTH_TOKEN';
  return 'none';
}

/** Turns, budgets, the JSON schema, thinking and partial messages: the run's limits and shape. */
export function runLimits(
  options: CliOptions,
  merged: Pick<Settings, 'stopHookBlockCap'>,
): Pick<
  QueryEngineConfig,
  | 'maxTurns'
  | 'stopHookBlockCap'
  | 'maxBudgetUsd'
  | 'taskBudget'
  | 'jsonSchema'
  | 'thinking'
  | 'includePartialMessages'
> {
  return {
    maxTurns: options.maxTurns,
    stopHookBlockCap: merged.stopHookBlockCap,
    maxBudgetUsd: options.maxBudgetUsd,
    taskBudget: options.taskBudget === undefined ? undefined : { total: options.taskBudget },
    jsonSchema: options.jsonSchema,
    thinking: thinkingConfig(options),
    includePartialMessages: options.includePartialMessages,
  };
}

/** Compaction and the context stages the flags and settings switch on: the main loop's and every worker's. */
export function contextSettings(options: Pick<CliOptions, 'autoCompact'>, settings: SessionSettings) {
  const merged = settings.loaded.merged;
  return {
    autoCompact: autoCompactEnabled(options, settings.loaded),
    ...contextStages(settings.loaded),
    ...(merged.autoCompactThreshold !== undefined
      ? { autoCompactThreshold: merged.autoCompactThreshold }
      : {}),
  };
}

/** The main loop's context management: the context settings with the skills compaction keeps. */
export function contextManagement(
  context: ReturnType<typeof contextSettings>,
  essentials: SessionCommands['essentials'],
): QueryEngineConfig['contextManagement'] {
  return { ...essentials, ...context };
}

/** The memory files of folders the model reaches later, beyond those loaded at the start (`--bare`: none). */
export function nestedMemory(
  options: Pick<CliOptions, 'bare' | 'settingSources'>,
  cwd: string,
  env: Env,
  loaded: readonly { path: string }[],
  imports: { trusted: boolean; denied: (path: string) => string | undefined },
): QueryEngineConfig['nestedMemory'] {
  if (options.bare) return undefined;
  return {
    projectRoot: cwd,
    env,
    ...imports,
    alreadyLoaded: loaded.map((file) => file.path),
    sources: options.settingSources,
  };
}

/** The transcript file of a persisted session (`--no-session-persistence`: none). */
export async function sessionTranscript(
  options: Pick<CliOptions, 'sessionPersistence'>,
  session: ResolvedSession,
  cwd: string,
  env: Env,
): Promise<QueryEngineConfig['transcript']> {
  if (!options.sessionPersistence) return undefined;
  const { TranscriptWriter } = await import('../session/transcript-writer');
  return new TranscriptWriter({
    path: session.transcriptPath,
    sessionId: session.sessionId,
    cwd,
    parentUuid: session.parentUuid,
    entrypoint: env.CLAUDE_CODE_ENTRYPOINT ? 'sdk-cli' : 'cli',
    gitBranch: currentGitBranch(cwd),
  });
}
