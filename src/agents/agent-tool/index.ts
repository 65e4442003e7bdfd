/**
 * The Agent tool (legacy name Task): the model delegates a task to a worker. A foreground call
 * runs the worker to its end and returns its report; the worker's messages reach the parent's
 * output as they happen (stream-json nests them under this call). Background runs and worktree
 * isolation go to the modules that own them, through the session's agent runtime.
 */
import type { QueryEvent } from '../../engine/query-types';
import * as z from '../../lib/zod';
import { EFFORT_LEVELS } from '../../model/effort';
import { buildTool, type Tool, ToolError } from '../../tools/tool';
import { type AsyncLaunchedOutput, BACKGROUND_UNAVAILABLE } from '../background-launch';
import { planWorker, reportSchemaProblem } from '../coordinator/worker-plan';
import { runAsTask } from '../foreground-task';
import type { AgentRegistry } from '../registry';
import { newAgentId, runAgent } from '../run-agent';
import { agentRuntimeOf } from '../runtime';
import type { AgentBudget, AgentDefinition } from '../types';
import { runInWorktree } from '../worktree/agent-isolation';
import basePrompt from './prompt.md';
import { type AgentToolOutput, agentResultText, agentToolOutput } from './result';

const DEFAULT_AGENT = 'general-purpose';

// Built on first validation: the JSON Schema the model sees comes from the build.
const inputShape = () => ({
  description: z.string().check(z.describe('A short (3–5 word) label for the task')),
  prompt: z.string().check(z.describe('The task for the agent: a complete, self-contained brief')),
  // Filled in when absent, so permission rules (`Agent(general-purpose)`) and hooks see the type.
  subagent_type: z
    ._default(z.string(), DEFAULT_AGENT)
    .check(z.describe('The agent to use (default general-purpose)')),
  model: z
    .optional(z.string())
    .check(z.describe("A model for this run (haiku, sonnet, opus or a model id); the agent's own otherwise")),
  effort: z
    .optional(z.enum(EFFORT_LEVELS))
    .check(z.describe("How much the agent should spend on its answer; the agent's own otherwise")),
  run_in_background: z
    .optional(z.boolean())
    .check(z.describe('Return at once and be notified when the agent finishes')),
  isolation: z.optional(z.enum(['worktree'])).check(z.describe('Run the agent in a temporary git worktree')),
  report_schema: z
    .optional(z.record(z.string(), z.unknown()))
    .check(
      z.describe(
        "A JSON Schema (type object) the agent's final report must match; you get the report as JSON",
      ),
    ),
  name: z
    .optional(z.string().check(z.maxLength(64)))
    .check(
      z.describe('A name for a background agent, which SendMessage, TaskOutput and TaskStop accept too'),
    ),
  max_turns: z.optional(z.int().check(z.positive())).check(z.describe('At most this many model round trips')),
  max_tokens: z.optional(z.int().check(z.positive())).check(z.describe('At most this many tokens in total')),
  max_duration_seconds: z
    .optional(z.int().check(z.positive()))
    .check(z.describe('At most this much wall time')),
});
const inputSchema = z.lazy(() => z.strictObject(inputShape()));

export type AgentToolInput = z.infer<typeof inputSchema>;

function callBudget(input: AgentToolInput): AgentBudget | undefined {
  const budget: AgentBudget = {};
  if (input.max_turns !== undefined) budget.maxTurns = input.max_turns;
  if (input.max_tokens !== undefined) budget.maxTokens = input.max_tokens;
  if (input.max_duration_seconds !== undefined) budget.maxDurationMs = input.max_duration_seconds * 1000;
  return Object.keys(budget).length > 0 ? budget : undefined;
}

function listing(registry: AgentRegistry): string {
  const lines = registry.list().map((definition) => {
    const tools = definition.maxTier === 'read' ? ' (read-only)' : '';
    return `- ${definition.agentType}${tools}: ${definition.description}`;
  });
  return `Available agents (subagent_type):\n${lines.join('\n')}`;
}

function unknownAgent(name: string, registry: AgentRegistry): string {
  return `There is no agent named "${name}". Use one of: ${registry.names().join(', ')}.`;
}

function definitionFor(input: AgentToolInput, registry: AgentRegistry): AgentDefinition {
  const name = input.subagent_type?.trim() || DEFAULT_AGENT;
  const definition = registry.get(name);
  if (!definition) throw new ToolError(unknownAgent(name, registry));
  return definition;
}

export function createAgentTool(
  registry: AgentRegistry,
): Tool<AgentToolInput, AgentToolOutput | AsyncLaunchedOutput> {
  return buildTool<AgentToolInput, AgentToolOutput | AsyncLaunchedOutput>({
    name: 'Agent',
    aliases: ['Task'],
    inputSchema,
    // Offered in plan mode: a worker started there plans too (run-agent.ts keeps the mode).
    tier: 'read',
    prompt: () => `${basePrompt.trim()}\n\n${listing(registry)}`,
    description: (input) => `${input.subagent_type?.trim() || DEFAULT_AGENT}: ${input.description}`,
    // Independent workers run side by side when one response asks for several.
    isConcurrencySafe: () => true,
    // The worker's own calls are decided one by one; a read-tier agent cannot change anything.
    isReadOnly: (input) => registry.get(input.subagent_type?.trim() || DEFAULT_AGENT)?.maxTier === 'read',
    checkPermissions: async () => ({ behavior: 'allow' }),
    interruptBehavior: () => 'cancel',
    async validateInput(input) {
      const name = input.subagent_type?.trim() || DEFAULT_AGENT;
      if (!registry.get(name)) return { ok: false, message: unknownAgent(name, registry) };
      if (input.prompt.trim() === '')
        return { ok: false, message: 'The prompt is empty: give the agent its task.' };
      const schemaProblem = input.report_schema && (await reportSchemaProblem(input.report_schema));
      if (schemaProblem) return { ok: false, message: schemaProblem };
      return { ok: true };
    },
    mapResultToContent: (output) =>
      output.status === 'async_launched' ? output.message : agentResultText(output),
    async call(input, context, onProgress) {
      const definition = definitionFor(input, registry);
      const runtime = agentRuntimeOf(context.services);
      if (!runtime) throw new ToolError('Agents are not available in this session.');
      const toolUseId = context.toolUseId;
      const budget = callBudget(input);
      // Coordinator workers get their tool set and the scratchpad; a report_schema its StructuredOutput.
      const plan = await planWorker(context, definition, input.report_schema);
      if (input.run_in_background ?? definition.background) {
        if (!runtime.background || !toolUseId) throw new ToolError(BACKGROUND_UNAVAILABLE);
        return {
          data: await runtime.background.launch({
            definition: plan.definition,
            ...(plan.toolFilter ? { toolFilter: plan.toolFilter } : {}),
            description: input.description,
            prompt: input.prompt,
            toolUseId,
            parent: context,
            ...(input.name ? { name: input.name } : {}),
            ...(input.model ? { model: input.model } : {}),
            ...(input.effort ? { effort: input.effort } : {}),
            ...(budget ? { budget } : {}),
          }),
        };
      }
      const agentId = newAgentId();
      const runWorker = (cwd: string | undefined, onEvent?: (event: QueryEvent) => void) =>
        runAgent({
          agentId,
          ...plan,
          ...(cwd ? { cwd } : {}),
          prompt: input.prompt,
          parent: context,
          signal: context.abortSignal,
          ...(input.model ? { model: input.model } : {}),
          ...(input.effort ? { effort: input.effort } : {}),
          ...(budget ? { budget } : {}),
          ...(toolUseId ? { parentToolUseId: toolUseId } : {}),
          ...(onEvent ? { onEvent } : {}),
        });
      // Reported as a task: its start, its finished messages (not its token stream) and its end
      // are what the live views and stream-json show of it.
      const run = (cwd?: string) =>
        toolUseId
          ? runAsTask(
              {
                toolUseId,
                agentId,
                agentType: definition.agentType,
                description: input.description,
                prompt: input.prompt,
                onProgress,
              },
              (onEvent) => runWorker(cwd, onEvent),
            )
          : runWorker(cwd);
      const isolated = (input.isolation ?? definition.isolation) === 'worktree';
      const { result, worktree } = isolated
        ? await runInWorktree(context, agentId, run)
        : { result: await run(), worktree: undefined };
      const output = agentToolOutput(result, input.prompt, { worktree, report: plan.structuredOutput });
      return { data: output, ...(output.reportMissing ? { isError: true } : {}) };
    },
  });
}
