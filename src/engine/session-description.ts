/**
 * What each turn tells about the session: the system prompt for the model (with the machine's and
 * the repository's facts, gathered once per conversation) and `system/init` for the host.
 */
import type { SystemPart } from '../model/types';
import type { ToolPermissionContext } from '../permissions/types';
import type { SessionServices } from '../tools/session-services';
import type { AnyTool } from '../tools/tool';
import { gatherEnvironment } from './environment';
import { buildInitMessage, type InitExtras } from './init-message';
import type { QueryEngineConfig } from './query-engine-config';
import type { SDKSystemInitMessage } from './sdk-messages';
import { buildSystemPrompt, type EnvironmentFacts } from './system-prompt';

/** The engine's state these are built from, read at each turn. */
export type LiveSessionFacts = {
  sessionId: string;
  model(): string;
  permissionContext(): ToolPermissionContext;
};

export class SessionDescription {
  private environment: EnvironmentFacts | undefined;

  constructor(
    private readonly config: QueryEngineConfig,
    private readonly services: Pick<SessionServices, 'gitConfig'>,
    private readonly live: LiveSessionFacts,
  ) {
    this.environment = config.environment;
  }

  async systemPrompt(tools: readonly AnyTool[]): Promise<SystemPart[]> {
    const { config, live } = this;
    const model = live.model();
    // Git runs as the session's tools run it, and is judged by the session's own checker.
    this.environment ??= await gatherEnvironment(
      config.cwd,
      model,
      { env: config.env ?? process.env, gitConfig: this.services.gitConfig },
      live.permissionContext().additionalDirectories,
    );
    return buildSystemPrompt({
      environment: { ...this.environment, model },
      toolNames: tools.map((t) => t.name),
      customSystemPrompt: config.customSystemPrompt,
      appendSystemPrompt: config.appendSystemPrompt,
      memory: config.memory,
    });
  }

  initMessage(tools: readonly AnyTool[], liveExtras?: InitExtras): SDKSystemInitMessage {
    return buildInitMessage({
      cwd: this.config.cwd,
      sessionId: this.live.sessionId,
      tools,
      model: this.live.model(),
      permissionContext: this.live.permissionContext(),
      apiKeySource: this.config.apiKeySource,
      extras: liveExtras ? { ...this.config.initExtras, ...liveExtras } : this.config.initExtras,
    });
  }
}
