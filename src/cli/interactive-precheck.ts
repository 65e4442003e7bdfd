/**
 * The interactive UI outlives a session that fails to start: it says "could not start" and waits
 * for input that can do nothing. A choice of model that cannot work at all — no key anywhere, an
 * Anthropic alias on an OpenAI-compatible server, an unknown provider — is therefore checked
 * before the UI opens, and ends the run with the same one line and exit code as `-p`.
 *
 * Every settings file counts here with its `env` and `baseUrl`, trusted or not: the check stops a
 * start only when no file could supply what is missing. Whatever it lets through, the session
 * decides as before (and an `--agent`, whose model is known only once the agents load, is left to it).
 */
import { MissingCredentialsError } from '../model/errors';
import type { CliOptions } from './cli-options';
import { type Env, loadSessionSettings } from './session-settings';

export async function interactiveStartProblem(
  options: CliOptions,
  env: Env,
  cwd: string,
): Promise<string | undefined> {
  if (options.agent !== undefined) return undefined;
  const [settings, { checkModelOptions, ModelSelectionError }] = await Promise.all([
    loadSessionSettings(options, env, cwd),
    import('../model/select'),
  ]);
  const merged = settings.loaded.merged;
  try {
    checkModelOptions({
      model: options.model,
      settingsModel: merged.model,
      provider: options.provider ?? merged.provider,
      baseUrl: merged.baseUrl,
      fallbackModel: options.fallbackModel,
      env: settings.env,
    });
  } catch (error) {
    if (error instanceof MissingCredentialsError || error instanceof ModelSelectionError)
      return error.message;
    throw error;
  }
  return undefined;
}
