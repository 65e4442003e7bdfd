/**
 * What waits for the model's next turn boundary: notices for the model (a background shell
 * finished) and prompts the user sent while a turn was running. One queue per conversation,
 * owned by its QueryEngine; the attachments stage empties it before each model call, so the
 * model reads queued items right after the tool results it is answering, never mid-stream.
 */
import type { UserContentBlock } from '../model/types';

export type QueuedNotice = { kind: 'notice'; text: string };

export type QueuedPrompt = {
  kind: 'prompt';
  content: string | UserContentBlock[];
  /** The SDK client's id of the message, echoed on the user frame. */
  clientUuid?: string;
};

export type QueuedMessage = QueuedNotice | QueuedPrompt;

export class MessageQueue {
  private items: QueuedMessage[] = [];

  enqueue(item: QueuedMessage): void {
    this.items.push(item);
  }

  get size(): number {
    return this.items.length;
  }

  hasNotices(): boolean {
    return this.items.some((item) => item.kind === 'notice');
  }

  /** Everything waiting, in arrival order; the queue is empty afterwards. */
  drain(): QueuedMessage[] {
    return this.items.splice(0);
  }

  /** The client ids of the prompts waiting (for the SDK's `interrupt` answer). */
  promptIds(): string[] {
    return this.items.flatMap((item) => (item.kind === 'prompt' && item.clientUuid ? [item.clientUuid] : []));
  }

  /**
   * Takes the prompts back out (notices stay): a turn that ended before its next boundary leaves
   * them for the caller to run as turns of their own.
   */
  takePrompts(): QueuedPrompt[] {
    const prompts = this.items.filter((item): item is QueuedPrompt => item.kind === 'prompt');
    this.items = this.items.filter((item) => item.kind !== 'prompt');
    return prompts;
  }
}
