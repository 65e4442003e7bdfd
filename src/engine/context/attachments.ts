/**
 * The attachments stage of the context pipeline: runs first, before every model call (so at every
 * turn boundary: after the tool results the model is about to answer, or after the prompt that
 * opens a turn), and appends what the model should learn of since its last call:
 *
 * 1. nested memory files: when a tool touched a path in a subfolder of the project (`file_path`,
 *    `notebook_path`, `path`), the AGENTS.md/CLAUDE.md files of the folders down to it, once per
 *    session;
 * 2. changed-file notices: files it read that someone else changed or deleted since
 *    (changed-files.ts);
 * 3. the queue: automated notices (a background shell finished) and prompts the user sent during
 *    the turn (queued-messages.ts);
 * 4. the skills a touched file made visible (a skill's `paths`; src/skills/, through
 *    `SkillListingSource`). The first listing is the engine's, at the start of the turn.
 *
 * Each is one message appended at the end of history, after everything the model has already been
 * sent: the request's cached prefix stays intact, and the meta messages join the tool results'
 * user turn. Being a pipeline stage, they are yielded by the loop like the other stages' events and
 * so reach the transcript.
 */
import { isAbsolute, resolve } from 'node:path';
import { type NestedMemoryOptions, NestedMemoryTracker } from '../../config/memory/nested-memory';
import type { HookRunner } from '../../hooks/types';
import { createUserMessage, type Message, type UserMessage } from '../../session/messages';
import type { ReadFileState } from '../../tools/read-file-state';
import type { MessageQueue } from '../message-queue';
import type { ContextPipeline } from '../query-types';
import { ChangedFiles } from './changed-files';
import { queuedMessages } from './queued-messages';

export type NestedMemoryConfig = NestedMemoryOptions;

/** The session's skill listing: the text when it changed since the model last read it. */
export type SkillListingSource = {
  /** `touchedPaths`: files the tools touched since the last call (path-gated skills). */
  update(touchedPaths: readonly string[]): string | undefined;
};

/** Where the stage's attachments come from; each source is optional. */
export type AttachmentSources = {
  nestedMemory?: NestedMemoryConfig;
  skillListing?: SkillListingSource;
  /** The conversation's read files, for changed-file notices. */
  readFileState?: ReadFileState;
  /** Notices and mid-turn prompts waiting for the next boundary; prompts go through `hooks`. */
  queue?: { messages: MessageQueue; hooks: HookRunner };
};

export type AttachmentsStage = (input: {
  messages: readonly Message[];
  cwd: string;
  signal: AbortSignal;
}) => Promise<Message[]>;

/** The tool input fields that name a file or folder a tool works on. */
const PATH_FIELDS = ['file_path', 'notebook_path', 'path'] as const;

export function nestedMemoryMessage(files: readonly { path: string; content: string }[]): UserMessage {
  const text = files
    .map((f) => `Contents of ${f.path} (instructions for files in this folder):\n\n${f.content.trim()}`)
    .join('\n\n');
  return createUserMessage(text, { isMeta: true });
}

/**
 * The paths the tools touched in messages added since the last call (`seen` holds the ones
 * already looked at; seed it with a resumed history), absolute.
 */
function touchedPathsCollector(seen: Iterable<Message>): {
  collect(messages: readonly Message[], cwd: string): string[];
  skip(message: Message): void;
} {
  const looked = new WeakSet<Message>(seen);
  return {
    skip: (message) => looked.add(message),
    collect(messages, cwd) {
      let first = messages.length;
      while (first > 0 && !looked.has(messages[first - 1] as Message)) first--;
      const paths: string[] = [];
      for (let i = first; i < messages.length; i++) {
        const message = messages[i] as Message;
        looked.add(message);
        if (message.type !== 'assistant') continue;
        for (const block of message.message.content) {
          if (block.type !== 'tool_use') continue;
          const input = block.input as Record<string, unknown>;
          for (const field of PATH_FIELDS) {
            const value = input[field];
            if (typeof value === 'string' && value !== '')
              paths.push(isAbsolute(value) ? value : resolve(cwd, value));
          }
        }
      }
      return paths;
    },
  };
}

/** The nested-memory part: the memory files of the paths the tools touched since its last run. */
function nestedMemoryStage(
  config: NestedMemoryConfig,
): (paths: readonly string[]) => Promise<Message | undefined> {
  const tracker = new NestedMemoryTracker(config);
  return async (paths) => {
    if (paths.length === 0) return undefined;
    const files = [];
    // One at a time: the tracker marks what it hands out, so a file two paths share comes once.
    for (const path of paths) files.push(...(await tracker.filesFor(path)));
    if (files.length === 0) return undefined;
    return nestedMemoryMessage(files);
  };
}

/** A stage over the given sources; `seen` as for the nested memory files (a resumed history). */
export function createAttachmentsStage(
  sources: AttachmentSources,
  seen: Iterable<Message> = [],
): AttachmentsStage {
  const touched = touchedPathsCollector(seen);
  const nested = sources.nestedMemory ? nestedMemoryStage(sources.nestedMemory) : undefined;
  const changed = sources.readFileState ? new ChangedFiles(sources.readFileState) : undefined;
  const queue = sources.queue;
  const listing = sources.skillListing;
  return async ({ messages, cwd, signal }) => {
    const out: Message[] = [];
    const paths = nested || listing ? touched.collect(messages, cwd) : [];
    const memory = await nested?.(paths);
    if (memory) {
      touched.skip(memory);
      out.push(memory);
    }
    const skills = listing?.update(paths);
    if (skills !== undefined) out.push(createUserMessage(skills, { isMeta: true }));
    const notice = await changed?.check();
    if (notice) out.push(notice);
    if (queue && queue.messages.size > 0)
      out.push(...(await queuedMessages(queue.messages.drain(), queue.hooks, signal)));
    return out;
  };
}

/**
 * Runs the attachments stage, then `next` (the other stages, if any) on the history with the
 * attachments appended; the attachments come first among the events.
 */
export function withAttachments(
  attach: AttachmentsStage,
  next: ContextPipeline | undefined,
): ContextPipeline {
  return async (input) => {
    const added = await attach({
      messages: input.messages,
      cwd: input.state.toolUseContext.cwd,
      signal: input.signal,
    });
    const messages = added.length > 0 ? [...input.messages, ...added] : input.messages;
    const rest = next ? await next({ ...input, messages }) : { messages };
    return { ...rest, events: added.length > 0 ? [...added, ...(rest.events ?? [])] : rest.events };
  };
}
