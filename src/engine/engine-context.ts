/**
 * The context pipeline as one conversation uses it: the configured stages (budgets, snip,
 * microcompact, collapse, auto-compact; or a caller's own pipeline), the attachments stage before
 * them (nested memory files, changed-file notices, queued notices and prompts), and the recoveries
 * from prompt-too-long (collapse drain, reactive compaction). Built on first use and kept for the
 * conversation's life.
 */
import type { HookRunner } from '../hooks/types';
import type { SideCallClient } from '../model/side-call';
import type { AppState } from '../tools/context';
import type { ReadFileState } from '../tools/read-file-state';
import { type AttachmentsStage, createAttachmentsStage, withAttachments } from './context/attachments';
import { type ContextManager, createContextPipeline } from './context/pipeline';
import type { MessageQueue } from './message-queue';
import type { QueryEngineConfig } from './query-engine-config';
import type { CollapseDrain, ContextPipeline, ReactiveCompact } from './query-types';

export type EngineContextDeps = {
  config: Pick<
    QueryEngineConfig,
    | 'contextManagement'
    | 'contextPipeline'
    | 'reactiveCompact'
    | 'nestedMemory'
    | 'initialMessages'
    | 'skillListing'
  >;
  sideCalls: SideCallClient;
  model: () => string;
  hooks: HookRunner;
  getAppState: () => AppState;
  readFileState: ReadFileState;
  /** Notices and mid-turn prompts for the model's next turn boundary. */
  queue: MessageQueue;
  sessionDir: string;
  /** The context window of a model (the session's model catalog drives auto-compaction). */
  contextWindowFor: (model: string) => number;
  /** Wraps the stages so the model's facts (its window from the server) are settled before them. */
  settleModelFacts: (stages: ContextPipeline | undefined) => ContextPipeline | undefined;
};

export class EngineContext {
  private manager: ContextManager | undefined;
  private attachments: AttachmentsStage | undefined;

  constructor(private readonly deps: EngineContextDeps) {}

  /** The pipeline of context management, built on first use (and what `/compact` runs). */
  managed(): ContextManager {
    const { deps } = this;
    this.manager ??= createContextPipeline({
      contextWindowFor: deps.contextWindowFor,
      ...deps.config.contextManagement,
      sideCalls: deps.sideCalls,
      model: deps.model,
      hooks: deps.hooks,
      getAppState: deps.getAppState,
      readFileState: deps.readFileState,
      sessionDir: deps.sessionDir,
    });
    return this.manager;
  }

  /**
   * What runs before each model call: the attachments stage, the model's facts settled, then the
   * configured stages.
   */
  pipeline(): ContextPipeline {
    const { config } = this.deps;
    const stages = this.deps.settleModelFacts(
      config.contextManagement ? this.managed().contextPipeline : config.contextPipeline,
    );
    this.attachments ??= createAttachmentsStage(
      {
        ...(config.nestedMemory ? { nestedMemory: config.nestedMemory } : {}),
        ...(config.skillListing ? { skillListing: config.skillListing } : {}),
        readFileState: this.deps.readFileState,
        queue: { messages: this.deps.queue, hooks: this.deps.hooks },
      },
      // A resumed history's tool calls happened in an earlier session: only new ones load files.
      config.initialMessages ?? [],
    );
    return withAttachments(this.attachments, stages);
  }

  reactiveCompact(): ReactiveCompact | undefined {
    const { config } = this.deps;
    return config.contextManagement ? this.managed().reactiveCompact : config.reactiveCompact;
  }

  /** The collapse drain, when the configured stages collapse context. */
  collapseDrain(): CollapseDrain | undefined {
    return this.deps.config.contextManagement ? this.managed().collapseDrain : undefined;
  }
}
