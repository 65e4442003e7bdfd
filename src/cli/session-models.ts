/**
 * The session's model facts: the settings' `models`, the context length an OpenAI-compatible
 * server reports (asked in the background, only for a model nothing else describes), and the
 * once-per-model warning for a model whose cost or window Yoke does not know, and the once-per-server
 * note naming the model a server's list chose when nothing named one (model/served-model.ts).
 */
import { takeFirstNotices } from '../config/model-notices';
import type { ModelDeclaration } from '../config/settings-schema';
import { ModelCatalog, unknownModelWarning } from '../model/catalog';
import type { ModelSelection } from '../model/select';
import type { Env } from '../model/types';
import { errorLine } from './errors';

export async function sessionModels(
  declared: Record<string, ModelDeclaration> | undefined,
  selection: Pick<
    ModelSelection,
    'model' | 'fallbackModel' | 'contextLookup' | 'servedModelNote' | 'endpoint'
  > & {
    fastModel?: string;
  },
  env: Env,
  log: { debug(text: string): void },
): Promise<{ catalog: ModelCatalog; warnings: string[] }> {
  const catalog = new ModelCatalog(declared ?? {}, selection.contextLookup, (id, error) =>
    log.debug(`could not ask the server for the context length of ${id}: ${errorLine(error)}`),
  );
  const ids = [
    ...new Set([
      selection.model,
      ...(selection.fallbackModel ? [selection.fallbackModel] : []),
      ...(selection.fastModel ? [selection.fastModel] : []),
    ]),
  ];
  // Started now, answered while the first request is on its way; nothing waits for it.
  for (const id of ids) void catalog.learn(id);
  const warnings = catalog.ignoredDeclarations();
  const unknown = ids.filter((id) => {
    const u = catalog.unknowns(id);
    return u.contextWindow || u.price;
  });
  // Both read and update the user state file: one after the other, so neither loses the other's entry.
  if (selection.servedModelNote !== undefined) {
    // Said before the unknown-model warning it explains.
    const told = `${selection.model} at ${selection.endpoint.baseUrl}`;
    const noted = await takeFirstNotices(env, [told], undefined, 'servedModelsNoted');
    if (noted.fresh.length > 0) warnings.push(selection.servedModelNote);
  }
  const { fresh, problem } = await takeFirstNotices(env, unknown);
  if (problem) warnings.push(problem);
  for (const id of fresh) {
    const warning = unknownModelWarning(id, catalog.unknowns(id), catalog.canLearn(id));
    if (warning) warnings.push(warning);
  }
  return { catalog, warnings };
}
