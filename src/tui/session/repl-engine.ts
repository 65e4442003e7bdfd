/** What the REPL needs of its engine (QueryEngine; ScriptedEngine in tests). */
import type { SDKMessage } from '../../engine/sdk-messages';
import type { UserContentBlock } from '../../model/types';
import type { PermissionMode } from '../../permissions/types';
import type { Message } from '../../session/messages';

export type ReplEngine = {
  submitMessage(
    prompt: string | UserContentBlock[],
    options?: { signal?: AbortSignal },
  ): AsyncGenerator<SDKMessage, void>;
  enqueuePrompt(content: string | UserContentBlock[]): void;
  takeQueuedPrompts(): { content: string | UserContentBlock[] }[];
  setPermissionMode(mode: PermissionMode): void;
  setModel(model: string): void;
  /** `!cd dir`: where the session's tools run from now on. */
  moveCwd(dir: string): void;
  compact(instructions?: string, options?: { signal?: AbortSignal }): Promise<unknown>;
  close(reason?: string): Promise<void>;
  readonly permissionMode: PermissionMode;
  readonly currentModel: string;
  /** Where tools run now (moved by Bash's `cd` and `!cd`). */
  readonly currentCwd: string;
  readonly sessionId: string;
  readonly totalCostUsd: number;
  /** The conversation so far (a resumed one has messages before the first turn). */
  readonly messages: readonly Message[];
};
