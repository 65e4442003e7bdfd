/**
 * User messages waiting for their turn. Messages that arrive mid-turn wait here; stdin's end
 * closes the queue, and the turns already in it still run (agent-sdk-protocol §6: EOF is not an interrupt).
 */
import type { UserContentBlock } from '../model/types';

export type QueuedTurn = { content: string | UserContentBlock[]; uuid?: string };

export class TurnQueue {
  private readonly items: QueuedTurn[] = [];
  private closed = false;
  private wake: (() => void) | undefined;
  /** Content sent with `shouldQuery: false`, carried into the next turn's prompt. */
  private carried: UserContentBlock[] = [];

  push(turn: QueuedTurn): void {
    const carried = this.carried;
    this.carried = [];
    const content = carried.length > 0 ? [...carried, ...toBlocks(turn.content)] : turn.content;
    this.items.push({ ...turn, content });
    this.notify();
  }

  /** Puts turns back at the head of the queue, in order (prompts a turn ended without reading). */
  pushFront(turns: readonly QueuedTurn[]): void {
    if (turns.length === 0) return;
    this.items.unshift(...turns);
    this.notify();
  }

  /**
   * The engine has no way to add to the history between turns, so appended content rides along
   * at the front of the next prompt: the model sees it in order, and no turn runs for it alone.
   */
  append(content: string | UserContentBlock[]): void {
    this.carried.push(...toBlocks(content));
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  /** Removes every waiting turn and returns their ids (for `interrupt` with `cancel_queued`). */
  drain(): QueuedTurn[] {
    return this.items.splice(0);
  }

  isEmpty(): boolean {
    return this.items.length === 0;
  }

  waitingIds(): string[] {
    return this.items.flatMap((turn) => (turn.uuid ? [turn.uuid] : []));
  }

  /** The next turn, or undefined once the queue is closed and empty. */
  async next(): Promise<QueuedTurn | undefined> {
    while (true) {
      const item = this.items.shift();
      if (item) return item;
      if (this.closed) return undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

function toBlocks(content: string | UserContentBlock[]): UserContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}
