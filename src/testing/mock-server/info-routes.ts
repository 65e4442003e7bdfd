/**
 * The read-only routes a client asks before or beside a conversation: the OpenAI-compatible model
 * list (`GET /v1/models`, with vLLM's `max_model_len`) and Ollama's `POST /api/show` (with the
 * model's `context_length` in `model_info`). They answer from the scenario's `models` and consume
 * no turn.
 */
import type { ServedModel } from './scenario';

export type InfoRoute = 'models' | 'show';

const INFO_ROUTES: Record<string, { method: string; route: InfoRoute }> = {
  '/v1/models': { method: 'GET', route: 'models' },
  '/models': { method: 'GET', route: 'models' },
  '/api/show': { method: 'POST', route: 'show' },
};

export function infoRoute(method: string, path: string): InfoRoute | undefined {
  const entry = INFO_ROUTES[path];
  return entry && entry.method === method ? entry.route : undefined;
}

/** The status and body for an info route. */
export function infoResponse(
  route: InfoRoute,
  models: readonly ServedModel[],
  body: unknown,
): { status: number; body: unknown } {
  if (route === 'models') {
    return {
      status: 200,
      body: {
        object: 'list',
        data: models.map((m) => ({
          id: m.id,
          object: 'model',
          created: 0,
          owned_by: 'mock',
          ...(m.maxModelLen !== undefined ? { max_model_len: m.maxModelLen } : {}),
        })),
      },
    };
  }
  const name =
    (body as { model?: unknown; name?: unknown } | undefined)?.model ?? (body as { name?: unknown })?.name;
  const model = models.find((m) => m.id === name);
  if (!model) return { status: 404, body: { error: `model '${String(name)}' not found` } };
  return {
    status: 200,
    body: {
      modelfile: '',
      parameters: '',
      details: { format: 'gguf', family: 'llama' },
      model_info: {
        'general.architecture': 'llama',
        ...(model.contextLength !== undefined ? { 'llama.context_length': model.contextLength } : {}),
      },
    },
  };
}
