/**
 * The session's fast model: the small model side calls use (WebFetch's answer about a page, the
 * auto-mode classifier, titles). The first of these that names a model the session's provider
 * can serve:
 *
 * 1. `YOKE_FAST_MODEL` (Yoke's own name for it),
 * 2. `ANTHROPIC_SMALL_FAST_MODEL` (Claude Code's),
 * 3. the `smallFastModel` setting;
 *
 * without one, the haiku model on Anthropic, and the main model elsewhere: an OpenAI-compatible
 * server serves the models it has, and Yoke cannot guess which of them is small.
 */
import { DEFAULT_FAST_ANTHROPIC_MODEL, getModelInfo, resolveModelAlias } from './models';
import { providerForModel, type SelectableProvider } from './select';
import type { Env } from './types';

export const FAST_MODEL_VARIABLES = ['YOKE_FAST_MODEL', 'ANTHROPIC_SMALL_FAST_MODEL'] as const;
export const FAST_MODEL_SETTING = 'smallFastModel';

export type FastModelChoice = {
  /** The fast model's id; undefined means side calls use the main model, whichever it is then. */
  model: string | undefined;
  /** Models named for it that the provider cannot serve, one line each. */
  warnings: string[];
};

export function chooseFastModel(input: {
  providerName: SelectableProvider;
  /** The `smallFastModel` setting. */
  setting?: string | undefined;
  env: Env;
}): FastModelChoice {
  const warnings: string[] = [];
  const candidates: { value: string | undefined; source: string }[] = [
    ...FAST_MODEL_VARIABLES.map((name) => ({ value: input.env[name], source: name })),
    { value: input.setting, source: `the "${FAST_MODEL_SETTING}" setting` },
  ];
  for (const { value, source } of candidates) {
    const named = value?.trim();
    if (!named) continue;
    const model = resolveModelAlias(named);
    const belongs = providerForModel(model) ?? getModelInfo(model)?.provider;
    if (belongs !== undefined && belongs !== input.providerName) {
      warnings.push(
        `${source} names ${model}, a model of ${belongs}, but the session uses ${input.providerName}; ` +
          'side calls do not use it.',
      );
      continue;
    }
    return { model, warnings };
  }
  return {
    model: input.providerName === 'anthropic' ? DEFAULT_FAST_ANTHROPIC_MODEL : undefined,
    warnings,
  };
}
