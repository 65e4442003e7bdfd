/**
 * Finding command files and skill folders on disk. A command is any `*.md` under a commands
 * folder (a subfolder adds a `:` namespace: `frontend/lint.md` is `/frontend:lint`); a skill is a
 * folder holding `SKILL.md`. A plugin's manifest may also list single command files and single
 * skill folders. Only the heads of the files are read here, in one synchronous pass (see
 * frontmatter.ts); the YAML parser is awaited once at the end, and only when a head needs it.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type FileHead, finishHead, type ScannedHead, scanFileHead } from './frontmatter';
import { specFields } from './spec-fields';
import type { LoadedFrom, PromptCommandSpec, PromptSource } from './types';

/** What the slash accepts: letters, digits, `-`, `_`, `.`, and `:` between namespace parts. */
const NAME_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Command folders nested deeper are not looked into (a planted tree cannot make the start slow). */
const MAX_DEPTH = 4;
const MD = /\.md$/i;

export type DirOrigin = {
  source: PromptSource;
  loadedFrom: LoadedFrom;
  /** Prefixed to every name: a plugin's `name:`. */
  namespace?: string;
  pluginRoot?: string;
};

export type LoadResult = { specs: PromptCommandSpec[]; problems: string[] };

/** One file to read: its default name, and its skill folder when it is a SKILL.md. */
type Candidate = { file: string; name: string; skillDir?: string };

/** A missing folder costs one failed call. */
function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The `*.md` files under a commands folder, named by their path (`a/b.md` → `a:b`). */
function commandFiles(dir: string, prefix: string, depth: number, out: Candidate[], problems: string[]) {
  if (depth > MAX_DEPTH) return;
  for (const entry of entries(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.'))
        commandFiles(path, `${prefix}${entry.name}/`, depth + 1, out, problems);
      continue;
    }
    if (!entry.isFile() || !MD.test(entry.name)) continue;
    const parts = `${prefix}${entry.name.slice(0, -3)}`.split('/');
    if (parts.every((part) => NAME_PART.test(part))) out.push({ file: path, name: parts.join(':') });
    else
      problems.push(
        `${path}: "${parts.join('/')}" cannot be a command name (letters, digits, ".", "-" and "_" only); skipped.`,
      );
  }
}

function notFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Reads the candidates' heads and makes their specs, in order. `optional` candidates (a folder
 * that may not be a skill) are skipped silently when their file is missing.
 */
async function specsOf(
  candidates: readonly Candidate[],
  origin: DirOrigin,
  problems: string[],
  optional = false,
): Promise<PromptCommandSpec[]> {
  const scanned: (ScannedHead | undefined)[] = candidates.map(({ file, skillDir }) => {
    try {
      const head = scanFileHead(file);
      if (skillDir !== undefined && !NAME_PART.test(basename(skillDir))) {
        problems.push(
          `${skillDir}: "${basename(skillDir)}" cannot be a skill name (letters, digits, ".", "-" and "_" only); skipped.`,
        );
        return undefined;
      }
      return head;
    } catch (error) {
      if (!(optional && notFound(error)))
        problems.push(
          `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); skipped.`,
        );
      return undefined;
    }
  });
  // Simple heads are complete already; only a head that needs the YAML parser waits for it.
  const needsYaml = scanned.some((s) => s?.yamlText !== undefined);
  const heads = needsYaml
    ? await Promise.all(scanned.map((s) => (s ? finishHead(s) : undefined)))
    : scanned.map((s) => s?.head);
  const specs: PromptCommandSpec[] = [];
  heads.forEach((head, i) => {
    const candidate = candidates[i] as Candidate;
    if (head) specs.push(specOf(candidate, head, origin, problems));
  });
  return specs;
}

function specOf(
  { file, name, skillDir }: Candidate,
  head: FileHead,
  origin: DirOrigin,
  problems: string[],
): PromptCommandSpec {
  const own: string[] = head.problem ? [head.problem] : [];
  const fields = specFields(head.data, head.firstLine || name, own);
  if (own.length > 0) problems.push(`${file}: ${own.join('; ')} (loaded without those keys)`);
  // A skill's own `name:` wins over its folder's (compat-surface §5), when it is a valid name.
  const named = head.data.name;
  const ownName = skillDir && typeof named === 'string' && NAME_PART.test(named) ? named : name;
  return {
    name: origin.namespace ? `${origin.namespace}:${ownName}` : ownName,
    ...fields,
    source: origin.source,
    loadedFrom: origin.loadedFrom,
    file,
    ...(skillDir !== undefined ? { skillDir } : {}),
    ...(origin.pluginRoot ? { pluginRoot: origin.pluginRoot } : {}),
    body: { kind: 'file', path: file, offset: head.bodyOffset },
  };
}

/** The commands under one commands folder. */
export async function loadCommandDir(dir: string, origin: DirOrigin): Promise<LoadResult> {
  const problems: string[] = [];
  const candidates: Candidate[] = [];
  commandFiles(dir, '', 0, candidates, problems);
  return { specs: await specsOf(candidates, origin, problems), problems };
}

/** The skills under one skills folder: each subfolder with a SKILL.md. */
export async function loadSkillDir(dir: string, origin: DirOrigin): Promise<LoadResult> {
  const problems: string[] = [];
  const candidates = entries(dir)
    .filter((e) => e.isDirectory() || e.isSymbolicLink())
    .map((e) => skillCandidate(join(dir, e.name)));
  return { specs: await specsOf(candidates, origin, problems, true), problems };
}

function skillCandidate(skillDir: string): Candidate {
  return { file: join(skillDir, 'SKILL.md'), name: basename(skillDir), skillDir };
}

/**
 * Single command files and single skill folders a plugin's manifest lists (their paths were
 * confined to the plugin when the manifest was read: src/plugins/component-paths.ts). A command
 * file is named by its file name, a skill by its folder's (or its own `name:`).
 */
export async function loadListedEntries(
  files: readonly string[],
  skillFolders: readonly string[],
  origin: DirOrigin,
): Promise<LoadResult> {
  const problems: string[] = [];
  const candidates: Candidate[] = [];
  for (const file of files) {
    const name = basename(file).replace(MD, '');
    if (MD.test(file) && NAME_PART.test(name)) candidates.push({ file, name });
    else
      problems.push(
        `${file}: a command file must be a .md file named with letters, digits, ".", "-" and "_" only; skipped.`,
      );
  }
  for (const folder of skillFolders) candidates.push(skillCandidate(folder));
  return { specs: await specsOf(candidates, origin, problems), problems };
}
