/**
 * The session's main agent and models (`chooseSessionModel`), and its model facts: the settings' `models`, the context length an OpenAI-compatible
 * server reports (asked in the background, only for a model nothing else describes), and the
 * once-per-model warning for a model whose cost or window Yoke does not know, and the once-per-server
 * note naming the model a server's list chose when nothing named one (model/served-model.ts).
 */
import { chooseMainAgent, type MainThreadAgent } from '../agents/main-agent';
import { takeFirstNotices } from '../config/model-notices';
import type { ModelDeclaration, Settings } from '../config/settings-schema';
import { ModelCatalog, unknownModelWarning } from '../model/catalog';
import { chooseFastModel, type FastModelChoice } from '../model/fast-model';
import type { ModelSelection } from '../model/select';
import type { Env } from '../model/types';
import { errorLine } from './errors';
import type { SessionSetupOptions } from './session-types';

type SelectModel = typeof import('../model/select').selectModel;

export type SessionModelChoice = {
  main: { agent: MainThreadAgent | undefined; warnings: string[] };
  selection: ModelSelection;
  fast: FastModelChoice;
};

/**
 * The main agent (`--agent`, else the `agent` setting) and the models the session runs: the
 * flag's model, else the main agent's, else the settings'; and the fast model for side calls.
 * `selectModel` is passed in because its module loads with the session's other big modules.
 */
export async function chooseSessionModel(input: {
  options: SessionSetupOptions;
  /** The settings files merged, and the same less what an untrusted project may not set. */
  merged: Settings;
  applied: Settings;
  agents: Promise<{ mainThread(name: string): MainThreadAgent }>;
  selectModel: SelectModel;
  env: Env;
}): Promise<SessionModelChoice> {
  const { options, merged, applied, env } = input;
  // Only `--agent` needs the agent files before the model is chosen; otherwise their reads overlap
  // the steps after this one, up to the commands.
  const main =
    options.agent === undefined && applied.agent === undefined
      ? { agent: undefined, warnings: [] }
      : chooseMainAgent(await input.agents, options.agent, applied.agent);
  const selection = await input.selectModel({
    model: options.model,
    agentModel: main.agent?.model,
    settingsModel: merged.model,
    provider: options.provider ?? merged.provider,
    baseUrl: applied.baseUrl,
    fallbackModel: options.fallbackModel,
    env,
    timeouts: merged.apiTimeouts,
    ...(options.letInputIn ? { beforeSend: options.letInputIn } : {}),
  });
  const fast = chooseFastModel({ providerName: selection.providerName, setting: merged.smallFastModel, env });
  return { main, selection, fast };
}

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
