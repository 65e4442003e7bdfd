/**
 * runAgent: one worker run on the same query loop as the main thread, in a fresh context. The
 * worker never sees the parent's conversation: it gets its own system prompt, the prompt as its
 * first user message (after `priorMessages` when a run is continued), a pool cut by its
 * definition, an abort chained to the parent's, a copy of the parent's read-file state, its own
 * id and a sidechain transcript. Its model calls count in the session's costs (so the parent's
 * usage and `--max-budget-usd` include them); its budgets stop it with a readable reason.
 */
import { randomBytes } from 'node:crypto';
import type { MessageQueue } from '../engine/message-queue';
import { query } from '../engine/query';
import type { QueryEvent, Terminal } from '../engine/query-types';
import type { StructuredOutputCapture } from '../engine/structured-output';
import { buildSystemPrompt } from '../engine/system-prompt';
import type { HookRunner } from '../hooks/types';
import { type EffortLevel, withEffortOverride } from '../model/effort';
import type { UserContentBlock } from '../model/types';
import { modeRefusal } from '../permissions/permission-context';
import type { ToolPermissionContext } from '../permissions/types';
import { createUserMessage, type Message } from '../session/messages';
import { TranscriptWriter } from '../session/transcript-writer';
import { initialAppState, type ToolUseContext } from '../tools/context';
import type { AnyTool } from '../tools/tool';
import { connectAgentMcp, mcpServerEntries } from './agent-mcp';
import { AgentMemoryError, MEMORY_TOOLS, prepareAgentMemory } from './agent-memory';
import { AgentBudgetMeter, mergeBudgets } from './budget';
import { finalTextOf } from './final-text';
import { preloadSkills } from './preload-skills';
import { agentRuntimeOf } from './runtime';
import { filterAgentTools } from './tool-filter';
import type { AgentBudget, AgentClock, AgentDefinition, AgentRunResult } from './types';
import { workerContext } from './worker-context';

export type RunAgentOptions = {
  definition: AgentDefinition;
  prompt: string | UserContentBlock[];
  /** The worker's earlier conversation, when a run is continued (SendMessage). */
  priorMessages?: readonly Message[];
  /** The context of the tool call that starts the worker. */
  parent: ToolUseContext;
  signal: AbortSignal;
  /** A fixed id (a continued run keeps its own); a new one otherwise. */
  agentId?: string;
  /** The worker's working directory and project root (a worktree); the parent's otherwise. */
  cwd?: string;
  /** The model the call asked for; wins over the definition's. */
  model?: string;
  /** The effort the call asked for (Agent's `effort`, a forked skill's); wins over the definition's. */
  effort?: EffortLevel;
  /** Tools added after the filtered pool (coordinator scratchpad helpers, StructuredOutput). */
  extraTools?: readonly AnyTool[];
  /**
   * The worker must answer through StructuredOutput (a `report_schema`, whose tool comes in
   * `extraTools`): the loop reminds it when it ends without, as for `--json-schema`.
   */
  structuredOutput?: StructuredOutputCapture;
  /** A last cut of the pool, after the definition's. */
  toolFilter?: (tool: AnyTool) => boolean;
  /** Whether the worker keeps the Agent tool (coordinator mode's own loop); never for subagents. */
  allowSpawning?: boolean;
  /** The call's own limits; the smaller of these and the definition's wins. */
  budget?: AgentBudget;
  /** The Agent tool_use this run answers (meta file, SubagentStart). */
  parentToolUseId?: string;
  /** Every event of the worker's loop as it happens: the live view and stream-json nesting. */
  onEvent?: (event: QueryEvent) => void;
  /** Shorthand for the `message` events of `onEvent`. */
  onMessage?: (message: Message) => void;
  /** Replaces the session's clock (tests of wall-time budgets). */
  clock?: AgentClock;
  /** Follow-ups for a running background worker (SendMessage), read at its turn boundaries. */
  inbox?: MessageQueue;
};

export class AgentRuntimeMissingError extends Error {
  override name = 'AgentRuntimeMissingError';
  constructor() {
    super('Subagents are not available in this session.');
  }
}

/** Agent ids as Claude Code spells them: `a` and 16 hex digits. */
export function newAgentId(): string {
  return `a${randomBytes(8).toString('hex')}`;
}

/**
 * The worker's mode: its definition's, unless the parent bypasses permissions or plans. A worker
 * started in plan mode plans too: no definition lets it write while the user is only planning.
 * A mode the settings turned off (`disableBypassPermissionsMode`, `disableAutoMode`) is refused
 * here as everywhere else: the worker keeps the parent's mode, and `refusal` says why.
 */
function workerPermissionContext(
  parent: ToolPermissionContext,
  definition: AgentDefinition,
): { context: ToolPermissionContext; refusal?: string } {
  const mode = definition.permissionMode;
  if (!mode || parent.mode === 'bypassPermissions' || parent.mode === 'plan') return { context: parent };
  const refused = modeRefusal(parent.disabledModes, mode);
  if (refused)
    return {
      context: parent,
      refusal: `Agent ${definition.agentType} asks for permission mode ${mode}: ${refused} It runs in ${parent.mode} mode.`,
    };
  return { context: { ...parent, mode } };
}

export async function runAgent(options: RunAgentOptions): Promise<AgentRunResult> {
  const { definition, parent } = options;
  const runtime = agentRuntimeOf(parent.services);
  if (!runtime) throw new AgentRuntimeMissingError();
  const clock = options.clock ?? runtime.clock;
  const startedAt = clock.now();
  const agentId = options.agentId ?? newAgentId();
  const model = runtime.resolveModel(options.model ?? definition.model, parent.model);
  const cwd = options.cwd ?? parent.cwd;
  const projectRoot = options.cwd ?? parent.projectRoot;

  const workerMode = workerPermissionContext(parent.getPermissionContext(), definition);
  if (workerMode.refusal) parent.notify({ level: 'warning', message: workerMode.refusal });
  let permissionContext = workerMode.context;
  const memory = await memoryOf(definition, parent);
  if (memory) {
    const scratch = [...(permissionContext.scratchpadDirectories ?? []), memory.folder];
    permissionContext = { ...permissionContext, scratchpadDirectories: scratch };
  }
  // The definition's own MCP servers connect for this worker; the servers it names pass its allow-list.
  const agentMcp = await connectAgentMcp(definition, parent.env, cwd);
  for (const problem of agentMcp?.problems ?? []) parent.notify({ level: 'warning', message: problem });
  const lists = definition.tools
    ? {
        ...definition,
        tools: [...definition.tools, ...mcpServerEntries(definition), ...(memory ? MEMORY_TOOLS : [])],
      }
    : definition;
  const poolFor = (context: ToolPermissionContext): AnyTool[] => {
    const filtered = filterAgentTools(lists, [...runtime.toolsFor(context), ...(agentMcp?.tools ?? [])], {
      allowSpawning: options.allowSpawning ?? false,
    });
    const pool = [...filtered, ...(options.extraTools ?? [])];
    return options.toolFilter ? pool.filter(options.toolFilter) : pool;
  };
  let tools = poolFor(permissionContext);

  const paths = runtime.sidechainPaths?.(agentId);
  const transcript = paths
    ? new TranscriptWriter({
        path: paths.transcript,
        sessionId: parent.sessionId,
        cwd,
        agentId,
        meta: {
          path: paths.meta,
          content: {
            agentType: definition.agentType,
            isBuiltIn: definition.source === 'built-in',
            description: definition.description,
            ...(options.parentToolUseId ? { toolUseId: options.parentToolUseId } : {}),
            model,
          },
        },
      })
    : undefined;
  const hooks: HookRunner =
    runtime.hooksFor?.(
      { agentId, agentType: definition.agentType, transcriptPath: paths?.transcript ?? '' },
      definition,
    ) ?? parent.hooks;

  // The worker stops with its parent, and on its own when its wall time runs out.
  const abort = new AbortController();
  const onParentAbort = () => abort.abort();
  if (options.signal.aborted) abort.abort();
  else options.signal.addEventListener('abort', onParentAbort, { once: true });
  const budget = mergeBudgets(definition.budget, options.budget);
  const meter = new AgentBudgetMeter(budget, clock, startedAt, () => abort.abort());

  const messages: Message[] = [...(options.priorMessages ?? [])];
  const record = (message: Message) => {
    transcript?.append(message);
    options.onMessage?.(message);
  };
  const emit = (event: QueryEvent) => {
    if (event.type === 'message') record(event.message);
    options.onEvent?.(event);
  };
  // The worker's own to-do list: its TodoWrite never replaces the parent's.
  let appState = initialAppState();
  const context: ToolUseContext = withEffortOverride(
    {
      ...parent,
      cwd,
      projectRoot,
      abortSignal: abort.signal,
      tools,
      readFileState: parent.readFileState.clone(),
      getAppState: () => appState,
      setAppState: (update) => {
        appState = update(appState);
      },
      agentId,
      model,
      getPermissionContext: () => permissionContext,
      switchPermissionMode: (to) => {
        const mode = to === 'before-plan' ? 'default' : to;
        permissionContext = { ...permissionContext, mode };
        tools = poolFor(permissionContext);
        return mode;
      },
      hooks,
      messages,
    },
    options.effort ?? definition.effort,
    'agent',
  );
  try {
    const started = await runStartHooks(hooks, options, agentId, abort.signal);
    for (const text of started) {
      const note = createUserMessage(text, { isMeta: true });
      messages.push(note);
      emit({ type: 'message', message: note });
    }
    // A continued run has its skills in its history already.
    if (!options.priorMessages?.length) {
      const skills = await preloadSkills(definition, context);
      for (const problem of skills.problems) parent.notify({ level: 'warning', message: problem });
      for (const message of skills.messages) {
        messages.push(message);
        emit({ type: 'message', message });
      }
    }
    const first = createUserMessage(options.prompt);
    messages.push(first);
    emit({ type: 'message', message: first });

    const systemPrompt = buildSystemPrompt({
      customSystemPrompt: memory
        ? `${definition.systemPrompt}\n\n${memory.promptSection}`
        : definition.systemPrompt,
      environment: { ...runtime.environment, cwd, model },
      toolNames: tools.map((tool) => tool.name),
      memory: definition.omitClaudeMd ? [] : runtime.memory,
    });
    const loop = query({
      messages,
      systemPrompt,
      toolUseContext: context,
      refreshTools: () => tools,
      canUseTool: runtime.canUseTool,
      provider: runtime.provider,
      model,
      ...(runtime.fallback ? { fallback: runtime.fallback } : {}),
      hooks,
      ...(options.structuredOutput ? { structuredOutput: options.structuredOutput } : {}),
      maxTurns: budget.maxTurns,
      querySource: 'agent',
      ...workerContext({
        settings: runtime.context,
        services: parent.services,
        model,
        hooks,
        getAppState: () => appState,
        readFileState: context.readFileState,
        sessionDir: parent.sessionDir,
        memory: definition.omitClaudeMd ? [] : runtime.memory,
        ...(options.inbox ? { inbox: options.inbox } : {}),
        ...(transcript ? { transcript } : {}),
      }),
      isBudgetExhausted: () => meter.exhausted(parent.services.costs.total().costUsd, runtime.maxBudgetUsd),
      letInputIn: runtime.letInputIn,
    });
    const terminal = await drain(loop, parent, meter, hooks, abort.signal, emit);
    const endedAt = clock.now();
    const stop = meter.stopReason(terminal.reason);
    const ended = endMessage(terminal, stop, budget);
    return {
      agentId,
      agentType: definition.agentType,
      finalText: finalTextOf(terminal.messages),
      messages: terminal.messages,
      usage: meter.usage,
      totalTokens: meter.totalTokens,
      toolUses: meter.toolUses,
      durationMs: Math.max(0, endedAt - startedAt),
      costUsd: meter.costUsd,
      model,
      endReason: stop ?? terminal.reason,
      ...(ended ? { endMessage: ended } : {}),
      ...(transcript ? { transcriptPath: transcript.path } : {}),
    };
  } finally {
    meter.dispose();
    options.signal.removeEventListener('abort', onParentAbort);
    transcript?.close?.();
    await agentMcp?.close();
  }
}

/** The agent's memory folder, or none (with a line for the user when it cannot be used). */
async function memoryOf(definition: AgentDefinition, parent: ToolUseContext) {
  try {
    // The session's project, also for a worker in a worktree: the memory outlives the worktree.
    return await prepareAgentMemory(definition, parent.projectRoot, parent.env);
  } catch (error) {
    if (!(error instanceof AgentMemoryError)) throw error;
    parent.notify({ level: 'warning', message: error.message });
    return undefined;
  }
}

/** SubagentStart: the hooks' additional context becomes the worker's first (meta) messages. */
async function runStartHooks(
  hooks: HookRunner,
  options: RunAgentOptions,
  agentId: string,
  signal: AbortSignal,
): Promise<string[]> {
  if (!hooks.subagentStart) return [];
  const outcome = await hooks.subagentStart({ agentId, agentType: options.definition.agentType }, signal);
  return outcome.additionalContext ?? [];
}

/** Runs the worker's loop to its end, keeping its accounts: costs, tokens, tool uses. */
async function drain(
  loop: AsyncGenerator<QueryEvent, Terminal>,
  parent: ToolUseContext,
  meter: AgentBudgetMeter,
  hooks: HookRunner,
  signal: AbortSignal,
  emit: (event: QueryEvent) => void,
): Promise<Terminal> {
  while (true) {
    const next = await loop.next();
    if (next.done) return next.value;
    const event = next.value;
    if (event.type === 'model_usage') {
      // The session's tracker: the parent's cost, its result and --max-budget-usd include it.
      const cost = parent.services.costs.add(event.model, event.usage, event.apiDurationMs);
      meter.addUsage(event.usage, cost);
      await hooks.notify('PostSampling', { model: event.model, usage: event.usage }, signal);
    } else if (event.type === 'message' && event.message.type === 'assistant') {
      meter.countToolUses(event.message.message.content);
    }
    emit(event);
  }
}

function endMessage(
  terminal: Terminal,
  stop: ReturnType<AgentBudgetMeter['stopReason']>,
  budget: AgentBudget,
): string | undefined {
  if (stop === 'max_tokens') return `The agent's token budget (${budget.maxTokens} tokens) is spent.`;
  if (stop === 'max_duration')
    return `The agent's time limit (${Math.round((budget.maxDurationMs ?? 0) / 1000)} s) ran out.`;
  if (stop === 'max_turns') return `The agent reached its turn limit (${budget.maxTurns} turns).`;
  if (terminal.reason === 'completed') return undefined;
  return terminal.message ?? `The agent stopped: ${terminal.reason}.`;
}
