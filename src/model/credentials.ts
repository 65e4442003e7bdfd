/**
 * The one line a start without a usable key gets. It names what to set for the provider Yoke
 * chose and, when the choice was only Yoke's default, how to choose the other one — a new user
 * with a local Ollama must not be left thinking an Anthropic key is the only way in.
 */
import { MissingCredentialsError } from './errors';

export const ANTHROPIC_CREDENTIAL_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

/** Why the session is on the Anthropic API. */
export type AnthropicChoice =
  /** Nothing chose a provider: Anthropic is the default. */
  | { by: 'default' }
  /** `--provider anthropic` or the `provider` setting. */
  | { by: 'provider' }
  /** The model is Anthropic's (an alias or a `claude-` id); `openAISettings` if those are set too. */
  | { by: 'model'; model: string; openAISettings: boolean };

export function missingAnthropicKey(choice: AnthropicChoice): MissingCredentialsError {
  const set = 'set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)';
  switch (choice.by) {
    case 'default':
      return new MissingCredentialsError(
        ANTHROPIC_CREDENTIAL_VARIABLES,
        `No API key found: ${set} for Anthropic, OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for a ` +
          'local OpenAI-compatible server (Ollama: http://localhost:11434/v1), which needs no key.',
      );
    case 'provider':
      return new MissingCredentialsError(ANTHROPIC_CREDENTIAL_VARIABLES, `No API key found: ${set}.`);
    case 'model': {
      const other = choice.openAISettings
        ? ' To use your OpenAI-compatible settings instead, pass --model with a model that server serves.'
        : '';
      return new MissingCredentialsError(
        ANTHROPIC_CREDENTIAL_VARIABLES,
        `No API key found for ${choice.model}, an Anthropic model: ${set}.${other}`,
      );
    }
  }
}

/** No OPENAI_API_KEY for an address that is not local (a local server needs none). */
export function missingOpenAIKey(server?: { baseUrl: string; source: string }): MissingCredentialsError {
  const message = server
    ? `No API key found for the server at ${server.baseUrl} (set by ${server.source}): set OPENAI_API_KEY.`
    : 'No API key found: set OPENAI_API_KEY, or OPENAI_BASE_URL to a local OpenAI-compatible server ' +
      '(Ollama: http://localhost:11434/v1), which needs no key.';
  return new MissingCredentialsError(['OPENAI_API_KEY'], message);
}
