/**
 * The attachments stage of the context pipeline: runs first, before every model call, and appends
 * what the model should see because of what the tools just did. Today that is nested memory files:
 * when a tool touched a path in a subfolder of the project (`file_path`, `notebook_path`, `path`),
 * the AGENTS.md/CLAUDE.md files of the folders down to it are added once per session, as one meta
 * user message (it joins the tool results' turn in the request). Being a pipeline stage, the message
 * is yielded by the loop like the other stages' events and so reaches the transcript.
 */
import { isAbsolute, resolve } from 'node:path';
import { NestedMemoryTracker } from '../../config/memory/nested-memory';
import type { Env, SettingsFileSource } from '../../config/paths';
import { createUserMessage, type Message, type UserMessage } from '../../session/messages';
import type { ContextPipeline } from '../query-types';

export type NestedMemoryConfig = {
  projectRoot: string;
  env: Env;
  /** Memory files already in the system prompt: never attached again. */
  alreadyLoaded?: Iterable<string>;
  /** `--setting-sources`: which kinds of memory file load (undefined: all). */
  sources?: readonly SettingsFileSource[];
};

/** The tool input fields that name a file or folder a tool works on. */
const PATH_FIELDS = ['file_path', 'notebook_path', 'path'] as const;

export function nestedMemoryMessage(files: readonly { path: string; content: string }[]): UserMessage {
  const text = files
    .map((f) => `Contents of ${f.path} (instructions for files in this folder):\n\n${f.content.trim()}`)
    .join('\n\n');
  return createUserMessage(text, { isMeta: true });
}

/**
 * A pipeline stage that attaches the nested memory files of paths the tools touched since its last
 * run. `seen` holds messages already looked at (seed it with a resumed history), so each call only
 * reads the messages added since the previous one.
 */
export function createAttachmentsStage(
  config: NestedMemoryConfig,
  seen: Iterable<Message> = [],
): (messages: readonly Message[], cwd: string) => Promise<Message | undefined> {
  const tracker = new NestedMemoryTracker(config);
  const looked = new WeakSet<Message>(seen);
  return async (messages, cwd) => {
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
    if (paths.length === 0) return undefined;
    const files = [];
    // One at a time: the tracker marks what it hands out, so a file two paths share comes once.
    for (const path of paths) files.push(...(await tracker.filesFor(path)));
    if (files.length === 0) return undefined;
    const message = nestedMemoryMessage(files);
    looked.add(message);
    return message;
  };
}

/**
 * Runs the attachments stage, then `next` (the other stages, if any) on the history with the
 * attachment appended; the attachment comes first among the events.
 */
export function withAttachments(
  attach: (messages: readonly Message[], cwd: string) => Promise<Message | undefined>,
  next: ContextPipeline | undefined,
): ContextPipeline {
  return async (input) => {
    const added = await attach(input.messages, input.state.toolUseContext.cwd);
    const messages = added ? [...input.messages, added] : input.messages;
    const rest = next ? await next({ ...input, messages }) : { messages };
    return { messages: rest.messages, events: added ? [added, ...(rest.events ?? [])] : rest.events };
  };
}
