/**
 * Coordinator mode for the main session (`--coordinator`, `YOKE_COORDINATOR_MODE=1`, or Claude
 * Code's `CLAUDE_CODE_COORDINATOR_MODE=1`): the main loop only delegates (tool-sets.ts), under a
 * system prompt that teaches how (coordinator-prompt.md), and the session gets a private
 * scratchpad folder its workers read and write without prompts (scratchpad.ts).
 *
 * The composition root calls `startCoordinator` once; it gives back what the session changes in
 * coordinator mode, or the identity when the mode is off. What the Agent tool needs for a worker
 * (the scratchpad, the worker tool set) is kept per session, keyed by its `SessionServices`.
 */
import type { LiveToolPool } from '../../engine/query-engine-config';
import type { Env } from '../../model/types';
import type { ToolPermissionContext } from '../../permissions/types';
import type { SessionServices } from '../../tools/session-services';
import type { AnyTool } from '../../tools/tool';
import coordinatorPrompt from './coordinator-prompt.md';
import { createScratchpad } from './scratchpad';
import { coordinatorPool } from './tool-sets';
import workerScratchpad from './worker-scratchpad.md';

const TRUTHY = /^(1|true|yes|on)$/i;

export function isCoordinatorMode(flag: boolean, env: Env): boolean {
  return (
    flag ||
    TRUTHY.test(env.YOKE_COORDINATOR_MODE ?? '') ||
    TRUTHY.test(env.CLAUDE_CODE_COORDINATOR_MODE ?? '')
  );
}

/** The facts every worker of a coordinator session is told, and the folder it may use freely. */
export type CoordinatorSession = { scratchpad: string };

const sessions = new WeakMap<SessionServices, CoordinatorSession>();

/** The coordinator session `services` belongs to; undefined outside coordinator mode. */
export function coordinatorOf(services: SessionServices): CoordinatorSession | undefined {
  return sessions.get(services);
}

/** The part of a worker's system prompt that announces the scratchpad. */
export function scratchpadSection(scratchpad: string): string {
  return workerScratchpad.trim().replace('{{SCRATCHPAD}}', scratchpad);
}

/** The main loop's pools as the engine takes them. */
type MainPools = {
  tools: readonly AnyTool[];
  toolsForMode: (permissionContext: ToolPermissionContext) => readonly AnyTool[];
  livePool?: LiveToolPool;
};

export type CoordinatorStart = {
  enabled: boolean;
  /** The system prompt of the main loop, unless the user gave one. */
  systemPrompt?: string;
  /** The session's permission context with the scratchpad added. */
  permissionContext(context: ToolPermissionContext): ToolPermissionContext;
  /** The main loop's pools, cut to the delegation tools; workers keep the whole pool. */
  mainPools<P extends MainPools>(pools: P): P;
  attach(services: SessionServices): void;
};

const off: CoordinatorStart = {
  enabled: false,
  permissionContext: (context) => context,
  mainPools: (pools) => pools,
  attach: () => {},
};

function delegatingPool(live: LiveToolPool): LiveToolPool {
  return {
    tools: (context) => coordinatorPool(live.tools(context)),
    initExtras: () => live.initExtras(),
    notices: () => live.notices(),
    promptContext: (prompt, signal) => live.promptContext(prompt, signal),
  };
}

export function startCoordinator(options: {
  flag: boolean;
  env: Env;
  cwd: string;
  sessionId: string;
}): CoordinatorStart {
  if (!isCoordinatorMode(options.flag, options.env)) return off;
  const scratchpad = createScratchpad({ cwd: options.cwd, sessionId: options.sessionId });
  return {
    enabled: true,
    systemPrompt: `${coordinatorPrompt.trim()}\n\nThe scratchpad folder of this session: ${scratchpad}`,
    permissionContext: (context) => ({
      ...context,
      scratchpadDirectories: [...(context.scratchpadDirectories ?? []), scratchpad],
    }),
    mainPools: (pools) => {
      const { livePool } = pools;
      return {
        ...pools,
        tools: coordinatorPool(pools.tools),
        toolsForMode: (context: ToolPermissionContext) => coordinatorPool(pools.toolsForMode(context)),
        ...(livePool ? { livePool: delegatingPool(livePool) } : {}),
      };
    },
    attach: (services) => {
      sessions.set(services, { scratchpad });
    },
  };
}
