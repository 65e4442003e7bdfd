/**
 * The first step of a turn (seed 001, processUserInput): what the user typed becomes either a
 * query for the model (possibly expanded, e.g. a slash command's prompt, with the tools it grants
 * and the model it asks for) or an answer given without the model (a local command's output).
 * The processor itself lives above the engine (commands/) and is handed in by the composition
 * root; without one every input is a query as typed.
 */
import type { EffortLevel } from '../model/effort';
import type { UserContentBlock } from '../model/types';
import type { PermissionRule } from '../permissions/types';
import type { ToolUseContext } from '../tools/context';
import type { ToolProgress } from '../tools/tool';

export type ProcessedInput =
  | {
      kind: 'query';
      content: string | UserContentBlock[];
      /** Context that follows the prompt as meta messages (attached files). */
      attachments?: readonly (string | UserContentBlock[])[];
      /** Allow rules in force for this turn only (a command's `allowed-tools`). */
      allowRules?: readonly PermissionRule[];
      /** The model for this turn only (a command's `model`). */
      model?: string;
      /** The effort for this turn only (a command's `effort`; `--effort` still wins). */
      effort?: EffortLevel;
    }
  | {
      kind: 'answered';
      text: string;
      isError: boolean;
      /**
       * What the answer adds to the conversation, so later turns know of it (a forked command's
       * line and its agent's report); a local command's answer adds nothing.
       */
      conversation?: readonly { content: string | UserContentBlock[]; isMeta: boolean }[];
    };

export type InputProcessor = (
  prompt: string | UserContentBlock[],
  turn: {
    context: ToolUseContext;
    signal: AbortSignal;
    /** Where a command's worker reports (a forked command: its task frames and messages). */
    onProgress?: (progress: ToolProgress) => void;
  },
) => Promise<ProcessedInput>;
