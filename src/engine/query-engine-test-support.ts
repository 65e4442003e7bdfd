/** A QueryEngine around a FakeProvider (or any provider) with the query tests' defaults. */
import { noopHooks } from '../hooks/types';
import type { Provider } from '../model/types';
import { allowAll } from '../permissions/types';
import { FakeProvider, type FakeScript } from '../testing/fake-provider';
import { QueryEngine, type QueryEngineConfig } from './query-engine';
import { echoTool } from './query-test-support';

const environment = {
  cwd: '/project',
  platform: 'linux',
  date: '2026-11-29',
  isGitRepo: false,
  model: 'claude-opus-5-5',
};

export function engine(script: FakeScript | Provider, overrides: Partial<QueryEngineConfig> = {}) {
  const provider = Array.isArray(script) || typeof script === 'function' ? new FakeProvider(script) : script;
  const e = new QueryEngine({
    cwd: '/project',
    provider,
    model: 'claude-opus-5-5',
    tools: [echoTool()],
    canUseTool: allowAll,
    hooks: noopHooks,
    environment,
    ...overrides,
  });
  return { engine: e, provider: provider as FakeProvider };
}
