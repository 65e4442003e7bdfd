/**
 * Fixtures for the agents' unit tests: a parent tool context whose session carries an agent
 * runtime on a FakeProvider, a pool with one tool of each tier (and an Agent stand-in), and a
 * clock the test moves by hand.
 */
import { MODEL } from '../engine/query-test-support';
import type { HookRunner } from '../hooks/types';
import * as z from '../lib/zod';
import type { Provider } from '../model/types';
import { allowAll, type CanUseToolFn } from '../permissions/types';
import type { ToolUseContext } from '../tools/context';
import { makeContext } from '../tools/test-support';
import { type AnyTool, buildTool } from '../tools/tool';
import { AgentRegistry } from './registry';
import { type AgentRuntime, attachAgentRuntime } from './runtime';
import type { AgentClock, AgentDefinition } from './types';

function tierTool(name: string, tier: AnyTool['tier']): AnyTool {
  return buildTool({
    name,
    tier,
    inputSchema: z.object({ text: z.string() }),
    prompt: `${name} (${tier}).`,
    isConcurrencySafe: () => true,
    isReadOnly: () => tier === 'read',
    call: async (input: { text: string }) => ({ data: `${name}: ${input.text}` }),
  });
}

/** Echo (read), Scribble (write), Run (exec) and Agent (exec, never run here). */
export function tierPool(): AnyTool[] {
  return [
    tierTool('Agent', 'exec'),
    tierTool('Echo', 'read'),
    tierTool('Run', 'exec'),
    tierTool('Scribble', 'write'),
  ];
}

/** A clock that moves only when told; timers fire as it passes them. */
export class ManualClock implements AgentClock {
  private time = 1_000_000;
  private timers: { at: number; fn: () => void }[] = [];

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.time + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const timer of due) timer.fn();
  }
}

export function definition(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    agentType: 'helper',
    description: 'Helps with tests.',
    systemPrompt: 'You are the helper agent of a test.',
    source: 'cli',
    maxTier: 'exec',
    ...overrides,
  };
}

export function parentWithRuntime(
  provider: Provider,
  options: {
    pool?: AnyTool[];
    canUseTool?: CanUseToolFn;
    clock?: AgentClock;
    hooks?: HookRunner;
    definitions?: AgentDefinition[];
    maxBudgetUsd?: number;
    /** Fields of the parent's context to set (its services, the calling tool_use's id). */
    context?: Partial<ToolUseContext>;
  } = {},
) {
  const pool = options.pool ?? tierPool();
  const parent = makeContext(pool, {
    model: MODEL,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...options.context,
  });
  const runtime: AgentRuntime = {
    provider,
    canUseTool: options.canUseTool ?? allowAll,
    toolsFor: () => pool,
    environment: { cwd: parent.cwd, platform: 'linux', date: '2025-01-01', isGitRepo: false, model: MODEL },
    memory: [{ path: '/project/AGENTS.md', content: 'Project rule: be brief.' }],
    definitions: new AgentRegistry(options.definitions ?? []),
    resolveModel: (requested, parentModel) =>
      requested === undefined || requested === 'inherit' ? parentModel : requested,
    clock: options.clock ?? new ManualClock(),
    ...(options.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: options.maxBudgetUsd }),
  };
  attachAgentRuntime(parent.services, runtime);
  return { parent, runtime };
}
