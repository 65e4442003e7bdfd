/**
 * A stage in front of the context pipeline that lets what the server says of the model (its
 * context length, asked in the background) arrive before the window is used — from the second
 * model call on, so the first request is never held up (see ModelCatalog.settle).
 */
import type { ModelCatalog } from '../model/catalog';
import type { ContextPipeline } from './query-types';

export function settleModelFacts(
  catalog: ModelCatalog,
  model: () => string,
  pipeline: ContextPipeline | undefined,
): ContextPipeline {
  return async (input) => {
    await catalog.settle(model());
    return pipeline ? pipeline(input) : { messages: input.messages };
  };
}
