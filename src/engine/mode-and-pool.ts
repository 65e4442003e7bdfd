/**
 * A session's permission context and the tool pool that follows it. The mode changes from
 * outside a turn (the SDK's `set_permission_mode`, the REPL's Shift+Tab) and from inside one
 * (EnterPlanMode, ExitPlanMode); the pool is the live one (MCP servers come and go), the one for
 * the current mode (`toolsForMode`), or the fixed `tools`.
 */
import { modeRefusal } from '../permissions/permission-context';
import type { PermissionMode, ToolPermissionContext } from '../permissions/types';
import type { AnyTool } from '../tools/tool';
import type { QueryEngineConfig } from './query-engine-config';

type PoolSources = Pick<QueryEngineConfig, 'tools' | 'livePool' | 'toolsForMode'>;

export class ModeAndPool {
  private current: ToolPermissionContext;
  /** The mode in force when plan mode was entered, for ExitPlanMode to go back to. */
  private beforePlan: PermissionMode = 'default';
  /** The pool the last request offered (see `pool`). */
  private lastPool: readonly AnyTool[];

  constructor(
    private readonly sources: PoolSources,
    initial: ToolPermissionContext,
  ) {
    this.current = initial;
    this.lastPool = sources.tools;
  }

  get context(): ToolPermissionContext {
    return this.current;
  }

  /** Throws the settings' one-line refusal for a mode they turned off (`disableAutoMode`, …). */
  setMode(mode: PermissionMode): void {
    const refusal = modeRefusal(this.current.disabledModes, mode);
    if (refusal) throw new Error(refusal);
    const from = this.current.mode;
    if (mode === 'plan' && from !== 'plan') this.beforePlan = from;
    this.current = { ...this.current, mode };
  }

  /** A tool's switch: `before-plan` goes back to the mode plan mode was entered from. */
  switchFromTool(to: PermissionMode | 'before-plan'): PermissionMode {
    this.setMode(to === 'before-plan' ? this.beforePlan : to);
    return this.current.mode;
  }

  /** Replaces the rules (the user edited a settings file); the mode stays. */
  setRules(rules: ToolPermissionContext['rules']): void {
    this.current = { ...this.current, rules };
  }

  /**
   * The tools the model is offered now. The same array comes back while nothing in it changed,
   * so a request's tool list (and its cached prefix) stays put.
   */
  pool(): readonly AnyTool[] {
    const { livePool, toolsForMode, tools } = this.sources;
    const next = livePool ? livePool.tools(this.current) : toolsForMode ? toolsForMode(this.current) : tools;
    const last = this.lastPool;
    if (last.length === next.length && last.every((tool, i) => tool === next[i])) return last;
    this.lastPool = next;
    return next;
  }

  /**
   * A turn's view of the pool with the turn's own tools (StructuredOutput) after it: the same
   * array until the pool changes, for the loop's `refreshTools`.
   */
  turnTools(own: readonly AnyTool[]): { initial: readonly AnyTool[]; refresh: () => readonly AnyTool[] } {
    let pool = this.pool();
    let tools: readonly AnyTool[] = [...pool, ...own];
    return {
      initial: tools,
      refresh: () => {
        const now = this.pool();
        if (now !== pool) {
          pool = now;
          tools = [...pool, ...own];
        }
        return tools;
      },
    };
  }
}
