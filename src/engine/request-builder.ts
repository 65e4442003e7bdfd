/**
 * The model request of each pass of the query loop: the system prompt, the history projected for
 * the API, the tool schemas, thinking, effort, and a `max_tokens` that fits the model's window. It owns
 * the projection (`ApiProjection`), which is extended turn by turn instead of rebuilt, so the
 * request and its token estimate only cost what changed since the previous call.
 */
import { contextWindowFor, defaultMaxTokensFor, maxOutputTokensFor } from '../model/models';
import { estimateRequestTokens } from '../model/tokens';
import type { ModelRequest, ProviderName } from '../model/types';
import { deferredToolsNotice } from '../tools/deferral/plan';
import { toolSchemas } from '../tools/registry';
import { ApiProjection } from './api-messages';
import type { QueryParams, QueryState } from './query-types';
import { fitOutputToWindow } from './recovery';

export class RequestBuilder {
  private readonly projection = new ApiProjection();

  constructor(
    private readonly params: Pick<
      QueryParams,
      'systemPrompt' | 'maxOutputTokens' | 'thinking' | 'contextWindowFor'
    >,
  ) {}

  contextWindow(model: string): number {
    return (this.params.contextWindowFor ?? contextWindowFor)(model);
  }

  build(model: string, state: QueryState, wire: ProviderName): ModelRequest {
    const { params } = this;
    const window = this.contextWindow(model);
    const messages = this.projection.project(state.messages);
    const { tools: pool, services } = state.toolUseContext;
    const plan = services.deferredTools.plan(pool, window, messages);
    const { tools, builtinToolCount } = toolSchemas(plan.upFront, plan.loaded);
    const notice = deferredToolsNotice(plan);
    const request: ModelRequest = {
      model,
      // After the system prompt's cache breakpoint: a change in the deferred set leaves it cached.
      system: notice ? [...params.systemPrompt, { text: notice }] : params.systemPrompt,
      messages,
      maxTokens:
        // An escalated limit may exceed what a fallback model allows.
        state.maxOutputTokensOverride !== undefined
          ? fitOutputToWindow(
              Math.min(state.maxOutputTokensOverride, maxOutputTokensFor(model)),
              window,
              'escalated',
            )
          : fitOutputToWindow(params.maxOutputTokens ?? defaultMaxTokensFor(model), window, 'default'),
    };
    if (tools.length > 0) {
      request.tools = tools;
      request.builtinToolCount = builtinToolCount;
    }
    if (params.thinking) request.thinking = params.thinking;
    const effort = state.toolUseContext.effort?.level;
    if (effort) {
      request.effort = effort;
      const note = services.models.effortNote(wire, model, effort);
      if (note) state.toolUseContext.notify({ level: 'warning', message: note });
    }
    return request;
  }

  /** The request's size in tokens, estimated; the history part comes from the projection's sums. */
  estimateTokens(request: ModelRequest): number {
    return estimateRequestTokens(request, this.projection.tokens);
  }
}
