/**
 * Every prompt command of a session, composed in the seed's order (000 §3.4): bundled skills,
 * skill folders, custom command files, plugin commands and skills, then MCP prompts. When two
 * share a name the first in precedence stays (compat-surface §5: personal over project over
 * plugin; a bundled skill yields to any of them) and the clash is reported once.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { claudeHome, type Env, PROJECT_CLAUDE_DIR, PROJECT_YOKE_DIR, yokeHome } from '../config/paths';
import { bundledSkills } from './bundled';
import {
  type DirOrigin,
  type LoadResult,
  loadCommandDir,
  loadListedEntries,
  loadSkillDir,
} from './load-dirs';
import type { PluginContribution, PromptCommandSpec } from './types';

export type { PluginContribution };

export type PromptSourcesInput = {
  /** The project root. */
  projectRoot: string;
  env: Env;
  /** Per enabled plugin, its folders (from the plugin loader; empty until it is wired in). */
  plugins: readonly PluginContribution[];
  /** `disableBundledSkills` in settings. */
  disableBundled?: boolean;
  /** Leaves out the user's and the project's folders (`--bare`). */
  bundledOnly?: boolean;
};

/** The project's real folder, which its command and skill files may not link out of. */
function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** The loads of every source, highest precedence first. */
function sourceLoads(input: PromptSourcesInput): (() => Promise<LoadResult>)[] {
  if (input.bundledOnly) return [];
  const user = [yokeHome(input.env), claudeHome(input.env)];
  const project = [join(input.projectRoot, PROJECT_YOKE_DIR), join(input.projectRoot, PROJECT_CLAUDE_DIR)];
  const projectReal = realOrSelf(input.projectRoot);
  const out: (() => Promise<LoadResult>)[] = [];
  for (const [roots, source] of [
    [user, 'user'],
    [project, 'project'],
  ] as const) {
    const confine = source === 'project' ? { confineTo: projectReal } : {};
    for (const root of roots)
      out.push(() => loadSkillDir(join(root, 'skills'), { source, loadedFrom: 'skills', ...confine }));
    for (const root of roots)
      out.push(() => loadCommandDir(join(root, 'commands'), { source, loadedFrom: 'commands', ...confine }));
  }
  for (const plugin of input.plugins) {
    const origin: DirOrigin = {
      source: 'plugin',
      loadedFrom: 'plugin',
      namespace: plugin.pluginName,
      pluginRoot: plugin.root,
      confineTo: plugin.root,
    };
    for (const dir of plugin.skillDirs) out.push(() => loadSkillDir(dir, origin));
    for (const dir of plugin.commandDirs) out.push(() => loadCommandDir(dir, origin));
    if (plugin.commandFiles.length > 0 || plugin.skillFolders.length > 0)
      out.push(() => loadListedEntries(plugin.commandFiles, plugin.skillFolders, origin));
  }
  return out;
}

export type ComposedCommands = {
  specs: PromptCommandSpec[];
  /** One line per broken file or name clash. */
  problems: string[];
};

/** Keeps the first spec of each name; a later one is reported as shadowed. */
export function resolveClashes(
  ordered: readonly PromptCommandSpec[],
  taken: ReadonlySet<string> = new Set(),
): ComposedCommands {
  const byName = new Map<string, PromptCommandSpec>();
  const problems: string[] = [];
  for (const spec of ordered) {
    const key = spec.name.toLowerCase();
    if (taken.has(key)) {
      problems.push(`/${spec.name} from ${where(spec)} is not loaded: a built-in command has that name.`);
      continue;
    }
    const kept = byName.get(key);
    if (kept) {
      // Replacing a bundled skill with one's own is what a user means to do; not a problem.
      if (spec.source === 'bundled') continue;
      problems.push(
        `/${spec.name} from ${where(spec)} is not loaded: /${kept.name} from ${where(kept)} takes precedence.`,
      );
      continue;
    }
    byName.set(key, spec);
  }
  return { specs: [...byName.values()], problems };
}

function where(spec: PromptCommandSpec): string {
  return spec.file ?? `${spec.source} ${spec.loadedFrom === 'mcp' ? 'prompt' : 'skill'}`;
}

/** Loads every folder at once; `builtinNames` are the built-in commands (they win every clash). */
export async function loadPromptCommands(
  input: PromptSourcesInput,
  builtinNames: ReadonlySet<string> = new Set(),
): Promise<ComposedCommands> {
  const loaded: LoadResult[] = await Promise.all(sourceLoads(input).map((load) => load()));
  const bundled = input.disableBundled ? [] : bundledSkills();
  // Bundled skills come last: a user's or project's skill of the same name replaces one.
  const ordered = [...loaded.flatMap((l) => l.specs), ...bundled];
  const resolved = resolveClashes(ordered, builtinNames);
  return { specs: resolved.specs, problems: [...loaded.flatMap((l) => l.problems), ...resolved.problems] };
}
