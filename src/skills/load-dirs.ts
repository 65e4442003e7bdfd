/**
 * Finding command files and skill folders on disk. A command is any `*.md` under a commands
 * folder (a subfolder adds a `:` namespace: `frontend/lint.md` is `/frontend:lint`); a skill is a
 * folder holding `SKILL.md`. A plugin's manifest may also list single command files and single
 * skill folders. Only the heads of the files are read here, in one synchronous pass (see
 * frontmatter.ts); the YAML parser is awaited once at the end, and only when a head needs it.
 */
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isWithin } from '../lib/path-within';
import { UnreadableFileError } from '../lib/regular-file-text';
import { type FileHead, finishHead, OutsideLinkError, type ScannedHead, scanFileHead } from './frontmatter';
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
  /**
   * The real folder everything must stay in once links are resolved: the project's for its own
   * files, the plugin's for a plugin's (both are the repository's, untrusted: a link out would
   * send any file on the disk to the model). The user's own folders are not confined.
   */
  confineTo?: string;
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

/** Where a link leads, when it may be followed; a link out of `confineTo` is reported. */
function linkTarget(path: string, confineTo: string | undefined, problems: string[]): string | undefined {
  try {
    const target = realpathSync.native(path);
    if (confineTo === undefined || isWithin(target, confineTo)) return target;
    problems.push(outsideLine(path, target));
  } catch {
    // A dangling link is no command.
  }
  return undefined;
}

function outsideLine(path: string, target: string): string {
  return `${path}: it is a link to ${target}, outside the folder it was found in; skipped.`;
}

/** What an entry is, following a link (when it may be followed): 'file', 'dir' or neither. */
function kindOf(dir: string, entry: Dirent, confineTo: string | undefined, problems: string[]) {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  if (!entry.isSymbolicLink()) return undefined;
  const target = linkTarget(join(dir, entry.name), confineTo, problems);
  if (target === undefined) return undefined;
  const info = statSync(target, { throwIfNoEntry: false });
  return info?.isFile() ? 'file' : info?.isDirectory() ? 'dir' : undefined;
}

/** The folder's entries, when the folder itself stays inside `confineTo` (it may be a link). */
function confinedEntries(dir: string, confineTo: string | undefined, problems: string[]): Dirent[] {
  const found = entries(dir);
  if (found.length === 0 || confineTo === undefined) return found;
  const real = realpathSync.native(dir);
  if (isWithin(real, confineTo)) return found;
  problems.push(outsideLine(dir, real));
  return [];
}

/** The `*.md` files under a commands folder, named by their path (`a/b.md` → `a:b`). */
function commandFiles(
  dir: string,
  prefix: string,
  depth: number,
  origin: DirOrigin,
  out: Candidate[],
  problems: string[],
) {
  if (depth > MAX_DEPTH) return;
  for (const entry of depth === 0 ? confinedEntries(dir, origin.confineTo, problems) : entries(dir)) {
    const path = join(dir, entry.name);
    const kind = kindOf(dir, entry, origin.confineTo, problems);
    if (kind === 'dir') {
      if (!entry.name.startsWith('.'))
        commandFiles(path, `${prefix}${entry.name}/`, depth + 1, origin, out, problems);
      continue;
    }
    if (kind !== 'file' || !MD.test(entry.name)) continue;
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
      const head = scanFileHead(file, origin.confineTo);
      if (skillDir !== undefined && !NAME_PART.test(basename(skillDir))) {
        problems.push(
          `${skillDir}: "${basename(skillDir)}" cannot be a skill name (letters, digits, ".", "-" and "_" only); skipped.`,
        );
        return undefined;
      }
      return head;
    } catch (error) {
      if (error instanceof OutsideLinkError) problems.push(outsideLine(file, error.target));
      else if (error instanceof UnreadableFileError) problems.push(`${error.message}; skipped.`);
      else if (!(optional && notFound(error)))
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
    const target = scanned[i]?.target;
    if (head) specs.push(specOf(target ? { ...candidate, file: target } : candidate, head, origin, problems));
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
  commandFiles(dir, '', 0, origin, candidates, problems);
  return { specs: await specsOf(candidates, origin, problems), problems };
}

/** The skills under one skills folder: each subfolder with a SKILL.md. */
export async function loadSkillDir(dir: string, origin: DirOrigin): Promise<LoadResult> {
  const problems: string[] = [];
  const candidates = confinedEntries(dir, origin.confineTo, problems)
    .filter((e) => kindOf(dir, e, origin.confineTo, problems) === 'dir')
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
