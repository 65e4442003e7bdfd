/**
 * An agent's persistent memory (`memory: user | project | local` in its definition): a folder of
 * its own that outlives the run — `<claude home>/agent-memory/<type>/`,
 * `<project>/.claude/agent-memory/<type>/` or `<project>/.claude/agent-memory-local/<type>/`, as
 * Claude Code keeps them. The worker is told where it is, reads the head of its `MEMORY.md` in
 * its system prompt, gets Read, Write and Edit, and reads and writes inside the folder without
 * prompts (the folder joins the permission context's scratch folders, judged on real paths).
 *
 * The project's folders are the repository speaking: every level below the base (the project
 * root, or the user's Claude folder) must be a real folder, never a symlink, or the memory is
 * not used — else a planted `.claude -> ~` would let the worker write anywhere without a prompt.
 * `MEMORY.md` itself must be a regular file (a link to a key file would be sent to the model).
 */
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { claudeHome, PROJECT_CLAUDE_DIR } from '../config/paths';
import type { Env } from '../model/types';
import { readTextHead } from '../tools/builtin/shared/text-head';
import type { AgentDefinition } from './types';

export type AgentMemoryScope = NonNullable<AgentDefinition['memory']>;

/** How much of MEMORY.md the prompt carries; the agent is asked to keep it shorter. */
export const MEMORY_PROMPT_LINES = 200;
const MEMORY_PROMPT_BYTES = 25_000;

export class AgentMemoryError extends Error {
  override name = 'AgentMemoryError';
}

/** The agent type as one folder name: a plugin's `plugin:name` becomes `plugin-name`. */
export function memoryFolderName(agentType: string): string {
  const name = agentType.replace(/[^A-Za-z0-9._-]/g, '-');
  if (name === '' || name === '.' || name === '..')
    throw new AgentMemoryError(`"${agentType}" cannot name a folder`);
  return name;
}

/** The trusted base and the levels below it that are made and checked. */
function layout(scope: AgentMemoryScope, agentType: string, projectRoot: string, env: Env) {
  const name = memoryFolderName(agentType);
  switch (scope) {
    case 'user':
      return { base: claudeHome(env), levels: ['agent-memory', name] };
    case 'project':
      return { base: projectRoot, levels: [PROJECT_CLAUDE_DIR, 'agent-memory', name] };
    case 'local':
      return { base: projectRoot, levels: [PROJECT_CLAUDE_DIR, 'agent-memory-local', name] };
  }
}

/** Makes (or checks) one level: it must end up a real folder, not a link or a file. */
function realFolder(path: string): void {
  try {
    mkdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(path);
  if (stat.isSymbolicLink() || !stat.isDirectory())
    throw new AgentMemoryError(`${path} is not a real folder (a symlink or a file is in its place)`);
}

/** Creates the agent's memory folder when needed and returns its real path. */
export function agentMemoryFolder(
  scope: AgentMemoryScope,
  agentType: string,
  projectRoot: string,
  env: Env,
): string {
  const { base, levels } = layout(scope, agentType, projectRoot, env);
  mkdirSync(base, { recursive: true });
  let path = realpathSync(base);
  for (const level of levels) {
    path = join(path, level);
    realFolder(path);
  }
  return path;
}

/** The head of MEMORY.md, when it is a regular file with text. */
async function memoryIndex(folder: string): Promise<string | undefined> {
  const path = join(folder, 'MEMORY.md');
  try {
    if (!lstatSync(path).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const head = await readTextHead(path, MEMORY_PROMPT_BYTES);
  if (!head) return undefined;
  const lines = head.text.split('\n');
  const cut = lines.length > MEMORY_PROMPT_LINES || head.truncated;
  const text = lines.slice(0, MEMORY_PROMPT_LINES).join('\n').trimEnd();
  return cut
    ? `${text}\n[MEMORY.md goes on; only its first ${MEMORY_PROMPT_LINES} lines are shown here.]`
    : text;
}

/** The section of the worker's system prompt about its memory. */
function memorySection(folder: string, scope: AgentMemoryScope, index: string | undefined): string {
  const shared = {
    user: 'It is yours across all projects, so keep project-specific details out of it.',
    project:
      "It belongs to this project and is shared with the project's other users through version control.",
    local: 'It belongs to this project on this machine only.',
  }[scope];
  return [
    '# Your memory',
    `You keep notes that last between your runs in the folder ${folder}. ${shared}`,
    'Read them when they may help; when you learn something worth keeping (a convention, a decision, a pitfall and its fix), write it there with Write or Edit. MEMORY.md is the index you see at every start: keep it short (under 200 lines), one line per topic, and move details into other files of the folder that it points to.',
    index
      ? `Your MEMORY.md now:\n<memory-index>\n${index}\n</memory-index>`
      : 'There is no MEMORY.md yet: create it when you first have something worth keeping.',
  ].join('\n\n');
}

export type PreparedMemory = {
  folder: string;
  /** Appended to the worker's system prompt. */
  promptSection: string;
};

/** Makes the folder and reads its index; throws AgentMemoryError with a line for the user. */
export async function prepareAgentMemory(
  definition: Pick<AgentDefinition, 'agentType' | 'memory'>,
  projectRoot: string,
  env: Env,
): Promise<PreparedMemory | undefined> {
  const scope = definition.memory;
  if (!scope) return undefined;
  let folder: string;
  try {
    folder = agentMemoryFolder(scope, definition.agentType, projectRoot, env);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AgentMemoryError(
      `The agent ${definition.agentType} runs without its ${scope} memory: ${reason}.`,
    );
  }
  return { folder, promptSection: memorySection(folder, scope, await memoryIndex(folder)) };
}

/** The tools a memory needs, added to a definition's allow-list (its tier still applies). */
export const MEMORY_TOOLS = ['Read', 'Write', 'Edit'] as const;
