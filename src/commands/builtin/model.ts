/**
 * /model: show the session's model, or switch it. An id must be one the session's catalog has
 * figures for (the built-in table or the settings' `models`) or, on an OpenAI-compatible server,
 * one the server lists (model-served.ts): a typo would otherwise only fail at the next request,
 * after the prompt was typed. An unknown id gets the close matches.
 */
import { editDistance, typoBudget } from '../../lib/edit-distance';
import { groupDigits } from '../../lib/group-digits';
import { listKnownModels, MODEL_ALIASES, resolveModelAlias } from '../../model/models';
import { providerForModel, type SelectableProvider } from '../../model/select';
import type { CommandHost, LocalCommand } from '../types';
import { askServer, notServedText, type ServerList, servedId, servedListLines } from './model-served';

export const modelCommand: LocalCommand = {
  kind: 'local',
  headless: true,
  name: 'model',
  description: 'Show the model, or switch to another for the next turns',
  argumentHint: '[model id or alias]',
  async run(args, host) {
    const declared = await declaredModels(host);
    if (args === '') return { kind: 'text', text: describeModels(host, declared, await askServer(host)) };
    const id = resolveModelAlias(args);
    const elsewhere = otherProviderText(args, id, host.providerName());
    if (elsewhere) return { kind: 'text', text: elsewhere };
    const unknowns = host.models.unknowns(id);
    const known = !unknowns.contextWindow || declared.includes(args) || declared.includes(id);
    const chosen = known ? id : await servedChoice(host, args, id, declared);
    if (typeof chosen !== 'string') return chosen;
    return switchTo(host, chosen);
  },
};

/** An id Yoke has no figures for: the server's own id for it, or the refusal to show. */
async function servedChoice(
  host: CommandHost,
  typed: string,
  id: string,
  declared: readonly string[],
): Promise<string | { kind: 'text'; text: string }> {
  if (id === host.model()) return id;
  const list = await askServer(host);
  if (list === undefined) return { kind: 'text', text: unknownModelText(typed, declared) };
  if ('unavailable' in list) {
    return {
      kind: 'text',
      text: `${unknownModelText(typed, declared)} (The server's list: ${list.unavailable}.)`,
    };
  }
  return (
    servedId(list.ids, id) ?? {
      kind: 'text',
      text: notServedText(typed, list, closeMatches(typed, list.ids)),
    }
  );
}

function switchTo(host: CommandHost, id: string): { kind: 'text'; text: string } {
  if (id === host.model()) return { kind: 'text', text: `Already using ${id}.` };
  host.setModel(id);
  const window = groupDigits(host.models.contextWindow(id));
  const size = host.models.canLearn(id)
    ? `context window taken as ${window} tokens until the server reports its own`
    : `context window ${window} tokens`;
  return { kind: 'text', text: `Model set to ${id} (${size}) for the next turns.` };
}

async function declaredModels(host: CommandHost): Promise<string[]> {
  const loaded = await host.loadSettings();
  const models = (loaded.merged as { models?: Record<string, unknown> }).models;
  return models && typeof models === 'object' ? Object.keys(models) : [];
}

function candidateIds(declared: readonly string[]): string[] {
  return [...new Set([...Object.keys(MODEL_ALIASES), ...listKnownModels().map((m) => m.id), ...declared])];
}

const PROVIDER_LABEL: Record<SelectableProvider, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI-compatible',
};

/**
 * The refusal for a model of the other provider: the session's client, key and base URL stay, so
 * the next request would have gone to a server that does not serve it (a Claude id to vLLM).
 */
function otherProviderText(typed: string, id: string, session: SelectableProvider): string | undefined {
  const wanted = providerForModel(typed) ?? providerForModel(id);
  if (wanted === undefined || wanted === session) return undefined;
  return (
    `${id} is a model of the ${PROVIDER_LABEL[wanted]} API, and this session talks to the ` +
    `${PROVIDER_LABEL[session]} one. Start Yoke with --model ${id} (and that API's key) to use it.`
  );
}

function describeModels(
  host: CommandHost,
  declared: readonly string[],
  server: ServerList | undefined,
): string {
  const current = host.model();
  const lines = [
    `Model: ${current} (context window ${groupDigits(host.models.contextWindow(current))} tokens)`,
  ];
  if (server && 'ids' in server) {
    lines.push(...servedListLines(server, current, declared, (id) => priceText(host, id)));
    lines.push('Switch with /model <id>.');
    return lines.join('\n');
  }
  if (server)
    lines.push(`The server did not list its models (${server.unavailable}); the models Yoke knows:`);
  lines.push(...knownModelLines(host, declared));
  lines.push('Switch with /model <id or alias>.');
  return lines.join('\n');
}

/** A model's price for the listing, when the table or the settings give one. */
function priceText(host: CommandHost, id: string): string | undefined {
  const price = host.models.price(id);
  return price ? `$${price.input}/$${price.output} per Mtok` : undefined;
}

/** The table's models of the session's provider, and the declared ones. */
function knownModelLines(host: CommandHost, declared: readonly string[]): string[] {
  const current = host.model();
  const provider = host.providerName();
  const lines = [`Available on the ${PROVIDER_LABEL[provider]} API:`];
  const aliasOf = new Map(Object.entries(MODEL_ALIASES).map(([alias, id]) => [id, alias]));
  // Only this provider's models: the other's would fail at the next request.
  const known = listKnownModels().filter((model) => providerForModel(model.id) === provider);
  const listed = new Set([...known.map((model) => model.id), ...declared]);
  if (!listed.has(current)) lines.push(`  * ${current}  (in use)`);
  for (const model of known) {
    const alias = aliasOf.get(model.id);
    const price = `$${model.price.input}/$${model.price.output} per Mtok`;
    lines.push(`  ${model.id === current ? '*' : ' '} ${model.id}${alias ? ` (${alias})` : ''}  ${price}`);
  }
  for (const id of declared) {
    if (known.some((m) => m.id === id)) continue;
    lines.push(`  ${id === current ? '*' : ' '} ${id}  (declared in settings)`);
  }
  return lines;
}

export function unknownModelText(typed: string, declared: readonly string[]): string {
  const close = closeMatches(typed, candidateIds(declared));
  const hint = close.length > 0 ? ` Did you mean ${close.join(', ')}?` : ' /model lists the models.';
  return (
    `Unknown model "${typed}": Yoke has no figures for it.${hint} ` +
    `A model of another server can be declared in settings: "models": {"${typed}": {"contextWindow": <tokens>}}.`
  );
}

/** Up to three ids within a typo's distance of what was typed, closest first. */
function closeMatches(typed: string, candidates: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  const budget = Math.max(2, typoBudget(wanted));
  // A misspelt family without its version (`claude-sonet`) is as close as the family's start.
  const distance = (id: string) =>
    Math.min(
      editDistance(wanted, id),
      ...[0, 1].map((longer) => editDistance(wanted, id.slice(0, wanted.length + longer))),
    );
  return candidates
    .map((id) => ({ id, d: id.toLowerCase().includes(wanted) ? 0 : distance(id.toLowerCase()) }))
    .filter((c) => c.d <= budget)
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map((c) => c.id);
}
