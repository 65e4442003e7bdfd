/**
 * Decides which session a run continues and rebuilds its history: `--continue`, `--resume <id>`,
 * `--fork-session`, `--resume-session-at` and `--session-id`. The result is what the composition
 * root hands to the QueryEngine (`initialMessages`, `sessionId`) and to the TranscriptWriter
 * (`transcriptPath`, `parentUuid`).
 */
import { randomUUID } from 'node:crypto';
import type { Env } from '../config/paths';
import type { EarlierSpend } from '../model/cost';
import type { Message } from './messages';
import { allSessionFiles, projectSessionFiles, type SessionFile } from './session-list';
import { findSessionFile, SessionResolveError } from './session-match';
import { loadTranscript } from './transcript-loader';
import { isSessionId, projectDir, transcriptPath } from './transcript-paths';
import { repairToolPairs, stripForeignThinking } from './transcript-repair';
import { TranscriptWriter } from './transcript-writer';

export { SessionResolveError } from './session-match';

export type ResolveSessionOptions = {
  cwd: string;
  env: Env;
  /** A session id or a unique prefix of one (`--resume`). */
  resume?: string;
  /** The newest session in this cwd (`--continue`). */
  continue?: boolean;
  /** Continue the history under a new session id, in a new file (`--fork-session`). */
  forkSession?: boolean;
  /** Keep the history up to and including this message uuid (`--resume-session-at`). */
  resumeSessionAt?: string;
  /** Use this id for the new (or forked) session (`--session-id`). */
  sessionId?: string;
  /**
   * The id a new (or forked) session takes when no `--session-id` is given, already chosen by the
   * caller (`--worktree` tells it to a WorktreeCreate hook before the session is resolved). A
   * fresh random id, so it is not checked against the existing sessions as `--session-id` is.
   */
  freshSessionId?: string;
  /** The model this run talks to; thinking written by another model is dropped. */
  model: string;
  /** False with `--no-session-persistence`: a fork is then not written to disk. */
  persist?: boolean;
  onWarning?: (warning: string) => void;
};

export type ResolvedSession = {
  sessionId: string;
  /** The history to continue from (empty for a new session). */
  messages: Message[];
  transcriptPath: string;
  /** What the TranscriptWriter chains its first line to (null for a new session). */
  parentUuid: string | null;
  /** The session a fork copied its history from. */
  forkedFrom?: { sessionId: string; transcriptPath: string };
  /** What the resumed session's earlier runs spent (not for a new session or a fork: a new id). */
  earlierSpend?: EarlierSpend;
  /** Damaged lines skipped while loading, synthetic tool results added, and similar notes. */
  warnings: string[];
};

export async function resolveSession(options: ResolveSessionOptions): Promise<ResolvedSession> {
  const { cwd, env } = options;
  const resuming = options.resume !== undefined || options.continue === true;
  validateFlags(options, resuming);

  if (!resuming) {
    const sessionId = options.sessionId ?? options.freshSessionId ?? randomUUID();
    if (options.sessionId !== undefined) assertUnused(env, sessionId);
    return {
      sessionId,
      messages: [],
      transcriptPath: transcriptPath(env, cwd, sessionId),
      parentUuid: null,
      warnings: [],
    };
  }

  const source = options.continue
    ? newestSession(env, cwd)
    : await findSessionFile(env, cwd, options.resume ?? '');
  const warnings: string[] = [];
  const warn = (text: string) => {
    warnings.push(text);
    options.onWarning?.(text);
  };
  const loaded = await loadTranscript(source.path, { resumeAt: options.resumeSessionAt, onWarning: warn });
  const repaired = repairToolPairs(loaded.messages);
  // The repair is redone on every resume; the user hears about each one once (a tool-repair line).
  const answered = repaired.synthesized.filter((id) => !loaded.reportedRepairs.has(id));
  const dropped = repaired.droppedResults.filter((id) => !loaded.reportedRepairs.has(id));
  if (answered.length > 0) {
    warn(`${answered.length} tool call(s) were cut off by the end of the last run; marked as interrupted`);
  }
  if (dropped.length > 0) warn(`${dropped.length} tool result(s) without their tool call were dropped`);
  const messages = stripForeignThinking(repaired.messages, options.model);

  if (!options.forkSession) {
    if (options.persist !== false && answered.length + dropped.length > 0) {
      const writer = new TranscriptWriter({ path: source.path, sessionId: source.sessionId, cwd });
      try {
        writer.recordToolRepair({ answered, dropped });
      } finally {
        writer.close();
      }
    }
    return {
      sessionId: source.sessionId,
      messages,
      transcriptPath: source.path,
      parentUuid: loaded.leafUuid,
      earlierSpend: loaded.spent,
      warnings,
    };
  }

  const sessionId = options.sessionId ?? options.freshSessionId ?? randomUUID();
  assertUnused(env, sessionId);
  const path = transcriptPath(env, cwd, sessionId);
  const forked = fork(messages);
  if (options.persist !== false) {
    const writer = new TranscriptWriter({ path, sessionId, cwd });
    try {
      for (const { message, from } of forked)
        writer.appendForked(message, { sessionId: source.sessionId, messageUuid: from });
    } finally {
      writer.close();
    }
  }
  return {
    sessionId,
    messages: forked.map((f) => f.message),
    transcriptPath: path,
    parentUuid: forked.at(-1)?.message.uuid ?? null,
    forkedFrom: { sessionId: source.sessionId, transcriptPath: source.path },
    warnings,
  };
}

function validateFlags(options: ResolveSessionOptions, resuming: boolean): void {
  if (options.resume !== undefined && options.continue) {
    throw new SessionResolveError('Use either --continue or --resume, not both.');
  }
  if (options.sessionId !== undefined && !isSessionId(options.sessionId)) {
    throw new SessionResolveError(
      `--session-id must be a UUID (like ${randomUUID()}), got "${options.sessionId}".`,
    );
  }
  if (options.sessionId !== undefined && resuming && !options.forkSession) {
    throw new SessionResolveError(
      '--session-id with --resume or --continue needs --fork-session: a resumed session keeps its own id.',
    );
  }
  if (!resuming && options.forkSession) {
    throw new SessionResolveError('--fork-session needs --resume <id> or --continue to say what to fork.');
  }
  if (!resuming && options.resumeSessionAt !== undefined) {
    throw new SessionResolveError('--resume-session-at needs --resume <id> or --continue.');
  }
}

function newestSession(env: Env, cwd: string): SessionFile {
  const newest = projectSessionFiles(env, cwd)[0];
  if (newest) return newest;
  const others = allSessionFiles(env).length;
  throw new SessionResolveError(
    `No conversation to continue in ${cwd} (nothing saved in ${projectDir(env, cwd)}).` +
      (others > 0 ? ` ${others} session(s) exist in other folders: \`yoke sessions list --all\`.` : ''),
  );
}

/** A session id names one file across all projects, so the same id is never reused anywhere. */
function assertUnused(env: Env, sessionId: string): void {
  const taken = allSessionFiles(env).find((f) => f.sessionId === sessionId);
  if (taken) {
    throw new SessionResolveError(
      `Session ${sessionId} already exists (${taken.path}); resume it with --resume ${sessionId}, or pick another --session-id.`,
    );
  }
}

/** Fresh uuids for the copy, so both files can be read side by side without uuid clashes. */
function fork(messages: readonly Message[]): { message: Message; from: string }[] {
  return messages.map((message) => ({ message: { ...message, uuid: randomUUID() }, from: message.uuid }));
}
