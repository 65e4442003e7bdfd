/**
 * The model for an OpenAI-compatible server when nothing names one (no `--model`, agent, setting
 * or OPENAI_MODEL). OpenAI's own default, gpt-4.1, is a name Ollama or vLLM does not serve, so a
 * user who set only OPENAI_BASE_URL would get "model not found" on the first request. Instead
 * the server's model list decides, before any request:
 * - one model: that one (said once, so the user knows what answered);
 * - several, gpt-4.1 among them (a gateway in front of OpenAI): gpt-4.1, as without a base URL;
 * - several others, none, or no list: stop with one line that lists them and says how to pick.
 */
import { apiName, baseUrlOrigin, type Endpoint } from './endpoint';
import { modelListUrl, type ServedModels } from './openai/served-models';

/** What to pass to name the model, for the lines below. */
const HOW_TO_NAME = 'name one with --model <id> or OPENAI_MODEL=<id> (or the "model" setting)';

/** How many ids a line lists before "and N more". */
const LISTED = 8;

/** The model, with the line to say once when the server's list chose it; or the line to stop with. */
export type ServedModelChoice = { model: string; note?: string } | { problem: string };

export function chooseServedModel(
  served: ServedModels,
  endpoint: Endpoint,
  fallback: string,
): ServedModelChoice {
  const server = `${apiName(endpoint)}${baseUrlOrigin(endpoint)}`;
  if ('requestFailure' in served) return { problem: served.requestFailure };
  if ('failure' in served) {
    return {
      problem:
        `No model is named, and ${server} does not list its models (GET ${modelListUrl(endpoint)}: ` +
        `${served.failure}); ${HOW_TO_NAME}.`,
    };
  }
  const ids = [...new Set(served.ids)];
  if (ids.length === 1) {
    const model = ids[0] as string;
    return {
      model,
      note: `no model named, so Yoke uses ${model}, the one model ${server} serves; ${HOW_TO_NAME} to choose.`,
    };
  }
  if (ids.includes(fallback)) return { model: fallback };
  if (ids.length === 0) {
    return {
      problem:
        `No model is named, and ${server} serves none yet: load or pull one (Ollama: ollama pull <model>), ` +
        `or ${HOW_TO_NAME}.`,
    };
  }
  const shown = ids.slice(0, LISTED).join(', ');
  const more = ids.length > LISTED ? ` and ${ids.length - LISTED} more` : '';
  return {
    problem:
      `No model is named, and ${server} serves ${ids.length}: ${shown}${more}. Choose: ${HOW_TO_NAME}, ` +
      `e.g. --model ${ids[0]}.`,
  };
}
