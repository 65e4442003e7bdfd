/**
 * A CommandHost for tests: real settings files and trust records in a temporary project and home
 * (so /permissions and /model read and write what a session would), with the UI's side of the
 * contract recorded instead of performed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentTaskInfo } from '../agents/background/types';
import { loadSettings } from '../config/load-settings';
import { projectTrust } from '../config/project-trust';
import type { PermissionMode, PermissionRule } from '../lib/permission-vocabulary';
import type { McpServerReport } from '../mcp/manager';
import { ModelCatalog } from '../model/catalog';
import type { SelectableProvider } from '../model/select';
import { emptyUsage } from '../model/types';
import type { SandboxManager } from '../sandbox/manager';
import type { BackgroundShellInfo } from '../tools/builtin/bash/shells';
import { createSessionCommands } from './builtin';
import { runCommandLine } from './dispatch';
import type { CommandHost, ContextSources, CostSnapshot, EditorResult, ProviderProbe } from './types';

export type TestHost = CommandHost & {
  root: string;
  env: CommandHost['env'] & { HOME: string; YOKE_HOME: string; YOKE_MANAGED_SETTINGS: string };
  /** Paths given to openInEditor. */
  edited: string[];
  reloads: number;
  editor: ((path: string) => Promise<EditorResult>) | undefined;
  contextSources: ContextSources;
  costSnapshot: CostSnapshot;
  rules: PermissionRule[];
  shells: BackgroundShellInfo[];
  agents: AgentTaskInfo[];
  mcp: McpServerReport[];
  probe: (signal: AbortSignal) => Promise<ProviderProbe>;
  provider: SelectableProvider;
  problems: { errors: string[]; warnings: string[] };
  /** What `sandbox()` answers. */
  sandboxManager: SandboxManager | undefined;
  cleanup(): Promise<void>;
};

export async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2));
}

export async function createTestHost(): Promise<TestHost> {
  const root = await mkdtemp(join(tmpdir(), 'yoke-commands-'));
  const project = join(root, 'proj');
  await mkdir(project, { recursive: true });
  const env = {
    HOME: join(root, 'home'),
    YOKE_HOME: join(root, 'home', '.yoke'),
    CLAUDE_CONFIG_DIR: join(root, 'home', '.claude'),
    YOKE_MANAGED_SETTINGS: join(root, 'managed.json'),
    PATH: process.env.PATH,
  };
  let model = 'claude-sonnet-5-5';
  let mode: PermissionMode = 'default';
  const host: TestHost = {
    root,
    cwd: project,
    projectRoot: project,
    env,
    sessionId: '00000000-0000-4000-8000-000000000001',
    transcriptPath: undefined,
    commands: createSessionCommands(),
    signal: new AbortController().signal,
    models: new ModelCatalog(),
    edited: [],
    reloads: 0,
    editor: undefined,
    rules: [],
    shells: [],
    agents: [],
    mcp: [],
    contextSources: { systemPrompt: [], tools: [], memoryFiles: [], messages: [] },
    costSnapshot: {
      usage: emptyUsage(),
      costUsd: 0,
      apiDurationMs: 0,
      requests: 0,
      byModel: {},
      sessionDurationMs: 0,
    },
    problems: { errors: [], warnings: [] },
    probe: async () => ({ ok: true, provider: 'fake', model, latencyMs: 1 }),
    model: () => model,
    provider: 'anthropic',
    providerName: () => host.provider,
    setModel: (id) => {
      model = id;
    },
    permissionMode: () => mode,
    setPermissionMode: (next) => {
      mode = next;
    },
    loadSettings: () => loadSettings({ cwd: project, env }),
    permissionRules: () => host.rules,
    projectTrusted: async () => (await projectTrust(project, env)).trusted,
    reloadPermissionRules: async () => {
      host.reloads++;
    },
    cost: () => host.costSnapshot,
    context: () => host.contextSources,
    backgroundShells: () => host.shells,
    backgroundAgents: () => host.agents,
    mcpServers: () => host.mcp,
    openInEditor: async (path) => {
      if (!host.editor)
        return { opened: false, reason: 'No editor: set $VISUAL or $EDITOR to edit files from Yoke.' };
      host.edited.push(path);
      return host.editor(path);
    },
    settingsProblems: () => host.problems,
    toolAvailability: () => [],
    probeProvider: (signal) => host.probe(signal),
    sandboxManager: undefined,
    sandbox: () => host.sandboxManager,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  return host;
}

/** Runs a command line on the host and returns its text outcome; anything else fails the test. */
export async function commandText(host: CommandHost, line: string): Promise<string> {
  const outcome = await runCommandLine(line, host);
  if (outcome?.kind === 'view') return outcome.text;
  if (outcome?.kind !== 'text') throw new Error(`expected a text outcome, got ${JSON.stringify(outcome)}`);
  return outcome.text;
}
