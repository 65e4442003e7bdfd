/**
 * A test harness for the streaming executor: tools whose calls wait on gates the test opens, so
 * concurrency is sequenced by promises instead of timers.
 */

import { type HookRunner, noopHooks } from '../hooks/types';
import * as z from '../lib/zod';
import { allowAll, type CanUseToolFn } from '../permissions/types';
import type { ToolUseContext } from './context';
import { StreamingToolExecutor } from './streaming-executor';
import { assistantWith, type Deferred, deferred, makeContext, toolResults, toolUse } from './test-support';
import { type AnyTool, buildTool } from './tool';
import type { ToolEvent } from './tool-events';

/** Tools whose calls block on a gate the test opens, recording what ran and with which signal. */
export function harness() {
  const gates = new Map<string, Deferred<'ok' | 'fail'>>();
  const startedGates = new Map<string, Deferred<AbortSignal>>();
  const started: string[] = [];
  const cwdSeen = new Map<string, string>();
  let running = 0;
  let maxRunning = 0;
  const entry = <T>(map: Map<string, Deferred<T>>, id: string) => {
    let d = map.get(id);
    if (!d) {
      d = deferred<T>();
      map.set(id, d);
    }
    return d;
  };

  const make = (
    name: string,
    options: {
      safe?: boolean;
      interrupt?: 'cancel' | 'block';
      failureCancelsSiblings?: boolean;
      modifier?: (ctx: ToolUseContext) => ToolUseContext;
    } = {},
  ): AnyTool =>
    buildTool({
      name,
      tier: 'read',
      inputSchema: z.object({ id: z.string() }),
      prompt: name,
      failureCancelsSiblings: options.failureCancelsSiblings ?? false,
      isConcurrencySafe: () => options.safe ?? false,
      interruptBehavior: () => options.interrupt ?? 'block',
      call: async (input, ctx, onProgress) => {
        started.push(input.id);
        cwdSeen.set(input.id, ctx.cwd);
        running++;
        maxRunning = Math.max(maxRunning, running);
        entry(startedGates, input.id).resolve(ctx.abortSignal);
        onProgress({ toolUseId: '', data: { id: input.id } });
        try {
          const outcome = await entry(gates, input.id).promise;
          const result = { data: `${name} ${input.id} done`, isError: outcome === 'fail' };
          return options.modifier ? { ...result, contextModifier: options.modifier } : result;
        } finally {
          running--;
        }
      },
    });

  return {
    make,
    started,
    cwdSeen,
    get maxRunning() {
      return maxRunning;
    },
    release: (id: string, outcome: 'ok' | 'fail' = 'ok') => entry(gates, id).resolve(outcome),
    whenStarted: (id: string) => entry(startedGates, id).promise,
  };
}

export function executorFor(
  tools: AnyTool[],
  options: {
    maxConcurrency?: number;
    canUseTool?: CanUseToolFn;
    hooks?: HookRunner;
    contextOverrides?: Partial<ToolUseContext>;
  } = {},
) {
  const context = makeContext(tools, options.contextOverrides);
  const executor = new StreamingToolExecutor({
    context,
    canUseTool: options.canUseTool ?? allowAll,
    hooks: options.hooks ?? noopHooks,
    ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
  });
  const add = (name: string, id: string, input: Record<string, unknown> = { id }) => {
    const block = toolUse(name, input, id);
    executor.addTool(block, assistantWith([block]));
  };
  return { executor, add, context };
}

/** Ends the executor's input (the response is complete) and reads every result still to come. */
export async function drain(executor: StreamingToolExecutor): Promise<ToolEvent[]> {
  executor.end();
  const events: ToolEvent[] = [];
  for await (const event of executor.results) events.push(event);
  return events;
}

/** Reads the next `count` events while the response may still add calls. */
export async function take(executor: StreamingToolExecutor, count: number): Promise<ToolEvent[]> {
  const reader = executor.results[Symbol.asyncIterator]();
  const events: ToolEvent[] = [];
  while (events.length < count) {
    const step = await reader.next();
    if (step.done) break;
    events.push(step.value);
  }
  return events;
}

export const ids = (events: ToolEvent[]) => toolResults(events).map((result) => result.tool_use_id);
// Lets every already-runnable promise continuation run (no timers involved).
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
