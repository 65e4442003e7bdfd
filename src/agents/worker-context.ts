/**
 * A worker's context pipeline: the same stages as the main loop (tool-result budgets,
 * microcompact, auto-compaction at the threshold, and snip or collapse where the settings switch
 * them on), and the same recoveries when the API still answers prompt-too-long — so a long worker
 * compacts its own conversation instead of ending. What a compaction re-attaches is the worker's
 * own: its memory files, its to-do list, the files it read. Queued follow-ups (SendMessage)
 * arrive through the attachments stage first.
 */
import { createAttachmentsStage, withAttachments } from '../engine/context/attachments';
import { type ContextManagementConfig, createContextPipeline } from '../engine/context/pipeline';
import type { MessageQueue } from '../engine/message-queue';
import { settleModelFacts } from '../engine/model-facts';
import type { QueryParams } from '../engine/query-types';
import { withTranscriptSync } from '../engine/transcript-sync';
import type { HookRunner } from '../hooks/types';
import type { TranscriptSink } from '../session/transcript-writer';
import type { AppState } from '../tools/context';
import type { ReadFileState } from '../tools/read-file-state';
import type { SessionServices } from '../tools/session-services';

/** The settings' part of the stages; what a compaction re-attaches is the worker's own. */
export type WorkerContextSettings = Omit<
  ContextManagementConfig,
  'memoryFiles' | 'getPlan' | 'getActiveSkills' | 'getSkillListing' | 'onContentReplacement'
>;

export type WorkerContextInput = {
  settings: WorkerContextSettings | undefined;
  services: SessionServices;
  model: string;
  hooks: HookRunner;
  getAppState: () => AppState;
  readFileState: ReadFileState;
  sessionDir: string;
  memory: readonly { path: string; content: string }[];
  inbox?: MessageQueue;
  transcript?: TranscriptSink;
};

export type WorkerContext = Required<
  Pick<QueryParams, 'contextPipeline' | 'reactiveCompact' | 'contextWindowFor'>
> &
  Pick<QueryParams, 'collapseDrain'>;

export function workerContext(input: WorkerContextInput): WorkerContext {
  const { services, model } = input;
  const contextWindowFor = (name: string) => services.models.contextWindow(name);
  const manager = createContextPipeline({
    contextWindowFor,
    ...input.settings,
    sideCalls: services.sideCalls,
    model,
    hooks: input.hooks,
    getAppState: input.getAppState,
    readFileState: input.readFileState,
    sessionDir: input.sessionDir,
    memoryFiles: input.memory,
  });
  // Only the worker's follow-ups: the read-file state it inherited is the parent's, whose changed
  // files are the parent's business.
  const attachments = createAttachmentsStage(
    input.inbox ? { queue: { messages: input.inbox, hooks: input.hooks } } : {},
  );
  const stages = settleModelFacts(services.models, () => model, manager.contextPipeline);
  const pipeline = withAttachments(attachments, stages);
  return {
    contextPipeline: withTranscriptSync(input.transcript, pipeline) ?? pipeline,
    reactiveCompact: manager.reactiveCompact,
    ...(manager.collapseDrain ? { collapseDrain: manager.collapseDrain } : {}),
    contextWindowFor,
  };
}
