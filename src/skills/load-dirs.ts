/**
 * Finding command files and skill folders on disk. A command is any `*.md` under a commands
 * folder (a subfolder adds a `:` namespace: `frontend/lint.md` is `/frontend:lint`); a skill is a
 * folder holding `SKILL.md`. Only the heads of the files are read here.
 */
import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { readFileHead } from './frontmatter';
import { specFields } from './spec-fields';
import type { LoadedFrom, PromptCommandSpec, PromptSource } from './types';

/** What the slash accepts: letters, digits, `-`, `_`, `.`, and `:` between namespace parts. */
const NAME_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Command folders nested deeper are not looked into (a planted tree cannot make the start slow). */
const MAX_DEPTH = 4;

export type DirOrigin = {
  source: PromptSource;
  loadedFrom: LoadedFrom;
  /** Prefixed to every name: a plugin's `name:`. */
  namespace?: string;
  pluginRoot?: string;
};

export type LoadResult = { specs: PromptCommandSpec[]; problems: string[] };

/** Synchronous, as the heads are (frontmatter.ts): a missing folder costs one failed call. */
function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

async function markdownFiles(dir: string, depth = 0): Promise<string[]> {
  if (depth > MAX_DEPTH) return [];
  const found = entries(dir);
  const nested = await Promise.all(
    found.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.')) return markdownFiles(path, depth + 1);
      return entry.isFile() && entry.name.toLowerCase().endsWith('.md') ? [path] : [];
    }),
  );
  return nested.flat();
}

function problemLine(file: string, problems: readonly string[]): string {
  return `${file}: ${problems.join('; ')}`;
}

async function specFromFile(
  file: string,
  name: string,
  origin: DirOrigin,
  extra: Pick<PromptCommandSpec, 'skillDir'>,
  problems: string[],
): Promise<PromptCommandSpec | undefined> {
  let head: Awaited<ReturnType<typeof readFileHead>>;
  try {
    head = await readFileHead(file);
  } catch (error) {
    problems.push(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); skipped.`,
    );
    return undefined;
  }
  const own: string[] = head.problem ? [head.problem] : [];
  const fields = specFields(head.data, head.firstLine || name, own);
  if (own.length > 0) problems.push(`${problemLine(file, own)} (loaded without those keys)`);
  // A skill's own `name:` wins over its folder's (compat-surface §5), when it is a valid name.
  const named = head.data.name;
  const ownName = extra.skillDir && typeof named === 'string' && NAME_PART.test(named) ? named : name;
  return {
    name: origin.namespace ? `${origin.namespace}:${ownName}` : ownName,
    ...fields,
    source: origin.source,
    loadedFrom: origin.loadedFrom,
    file,
    ...extra,
    ...(origin.pluginRoot ? { pluginRoot: origin.pluginRoot } : {}),
    body: { kind: 'file', path: file, offset: head.bodyOffset },
  };
}

/** The commands under one commands folder. */
export async function loadCommandDir(dir: string, origin: DirOrigin): Promise<LoadResult> {
  const problems: string[] = [];
  const files = await markdownFiles(dir);
  const specs = await Promise.all(
    files.map((file) => {
      const parts = relative(dir, file).slice(0, -'.md'.length).split(sep);
      if (!parts.every((part) => NAME_PART.test(part))) {
        problems.push(
          `${file}: "${parts.join('/')}" cannot be a command name (letters, digits, ".", "-" and "_" only); skipped.`,
        );
        return undefined;
      }
      return specFromFile(file, parts.join(':'), origin, {}, problems);
    }),
  );
  return { specs: specs.filter((s): s is PromptCommandSpec => s !== undefined), problems };
}

/** The skills under one skills folder: each subfolder with a SKILL.md. */
export async function loadSkillDir(dir: string, origin: DirOrigin): Promise<LoadResult> {
  const problems: string[] = [];
  const folders = entries(dir).filter((e) => e.isDirectory() || e.isSymbolicLink());
  const specs = await Promise.all(
    folders.map((folder) => {
      const skillDir = join(dir, folder.name);
      const file = join(skillDir, 'SKILL.md');
      if (!existsSync(file)) return undefined;
      if (!NAME_PART.test(folder.name)) {
        problems.push(
          `${skillDir}: "${folder.name}" cannot be a skill name (letters, digits, ".", "-" and "_" only); skipped.`,
        );
        return undefined;
      }
      return specFromFile(file, folder.name, origin, { skillDir }, problems);
    }),
  );
  return { specs: specs.filter((s): s is PromptCommandSpec => s !== undefined), problems };
}
