/**
 * Where each tool call of the running turn stands before its result: waiting, asked, started.
 * The engine's news of a call (its permission question, its start) can come before the call's
 * item does, so it is kept here by call id, and a new item begins in the state its call is in.
 */
import type { ToolOutcome } from './items';

export class ToolCallStates {
  /** Calls whose permission question is open. */
  private readonly asking = new Set<string>();
  /** When each call started running (the engine's start, after any permission question). */
  private readonly started = new Map<string, number>();

  /** The outcome a call's new item begins with. */
  initial(toolUseId: string): ToolOutcome {
    const startedAt = this.started.get(toolUseId);
    if (startedAt !== undefined) return { status: 'running', startedAt };
    return this.asking.has(toolUseId) ? { status: 'awaiting-permission' } : { status: 'waiting' };
  }

  asked(toolUseId: string): void {
    this.asking.add(toolUseId);
  }

  answered(toolUseId: string): void {
    this.asking.delete(toolUseId);
  }

  /** Records the call's start, once: the time it started, or undefined when it had started already. */
  start(toolUseId: string, at: number): number | undefined {
    if (this.started.has(toolUseId)) return undefined;
    this.started.set(toolUseId, at);
    return at;
  }

  /** The turn ended: its calls are settled or cut off. */
  clear(): void {
    this.asking.clear();
    this.started.clear();
  }
}
