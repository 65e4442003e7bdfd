/** Glob: finds files by name pattern, newest first, honouring .gitignore and .ignore. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as z from '../../../lib/zod';
import { splitPatternBase } from '../../../permissions/glob-base';
import { buildTool, ToolError } from '../../tool';
import { denyExclusions, skippedNote } from '../shared/deny-exclusions';
import { describeFsError } from '../shared/fs-errors';
import { resolveToolPath } from '../shared/paths';
import { listSearchFiles, ripgrepAvailability } from '../shared/ripgrep';
import { compileGlob } from './glob-pattern';
import prompt from './prompt.md';
import { pathForModel, sortNewestFirst } from './search-results';

export const MAX_GLOB_RESULTS = 100;
/** A listing this long means the search root is far too broad; stop reading instead of exhausting memory. */
const MAX_LISTED_FILES = 1_000_000;

const inputSchema = z.lazy(() =>
  z.strictObject({
    pattern: z
      .string()
      .check(z.minLength(1), z.describe('Glob pattern, e.g. "**/*.ts" or "src/**/index.{js,ts}"')),
    path: z
      .optional(z.string())
      .check(
        z.describe(
          'Directory to search in (default: the current working directory). Omit it rather than passing null.',
        ),
      ),
  }),
);
export type GlobInput = z.infer<typeof inputSchema>;

export type GlobOutput = {
  durationMs: number;
  numFiles: number;
  filenames: string[];
  truncated: boolean;
  /** How many files matched before the cap. */
  totalMatches: number;
  /** False when the listing itself was cut short, so `totalMatches` is a lower bound. */
  countIsComplete: boolean;
  /** Matching files left out because Read deny rules cover them. */
  deniedSkipped?: number;
};

function renderForModel(output: GlobOutput, cwd: string | undefined): string {
  const note = skippedNote(output.deniedSkipped ?? 0);
  if (output.numFiles === 0) return note ? `No files found\n${note}` : 'No files found';
  const lines = output.filenames.map((file) => (cwd ? pathForModel(file, cwd) : file));
  if (note) lines.push('', note);
  if (output.truncated) {
    const total = output.countIsComplete ? `${output.totalMatches}` : `more than ${output.totalMatches}`;
    lines.push(
      '',
      `(Showing the ${output.numFiles} most recently modified of ${total} matching files. ` +
        'Narrow the pattern or pass a more specific path to see the others.)',
    );
  }
  return lines.join('\n');
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function assertDirectory(dir: string, cwd: string): Promise<void> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ToolError(`Directory does not exist: ${dir}. The current working directory is ${cwd}.`);
    }
    throw new ToolError(describeFsError(error, dir));
  }
  if (!info.isDirectory()) {
    throw new ToolError(
      `${dir} is a file, not a directory. Pass its folder as path, or use Read to view the file.`,
    );
  }
}

export const globTool = buildTool<GlobInput, GlobOutput>({
  name: 'Glob',
  tier: 'read',
  access: 'file-glob',
  inputSchema,
  prompt,
  description: (input) => `Glob ${input.pattern}${input.path ? ` in ${input.path}` : ''}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  interruptBehavior: () => 'cancel',
  availability: ripgrepAvailability,
  toAutoClassifierInput: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
  mapResultToContent: (output) => renderForModel(output, undefined),
  async call(input, context) {
    const started = Date.now();
    // The permission check judged this same folder (the pattern's literal base).
    const given = resolveToolPath(input.path ?? context.cwd, context.cwd);
    const split = splitPatternBase(input.pattern, given);
    const root = split.base;
    await assertDirectory(given, context.cwd);
    // A folder named by the pattern itself that does not exist simply has no matches.
    if (root !== given && !(await isDirectory(root))) {
      const data: GlobOutput = {
        durationMs: Date.now() - started,
        numFiles: 0,
        filenames: [],
        truncated: false,
        totalMatches: 0,
        countIsComplete: true,
      };
      return { data, content: renderForModel(data, context.cwd) };
    }
    const matches = compileGlob(split.pattern);
    const exclusions = denyExclusions(context, root, '.');

    const listing = await listSearchFiles(root, {
      signal: context.abortSignal,
      env: context.env,
      maxLines: MAX_LISTED_FILES,
    });

    const matched: string[] = [];
    let deniedSkipped = 0;
    for (const relativePath of listing.files) {
      if (!matches(relativePath)) continue;
      if (exclusions.deniedBy(relativePath)) deniedSkipped++;
      else matched.push(resolve(root, relativePath));
    }
    const sorted = await sortNewestFirst(matched);
    const filenames = sorted.slice(0, MAX_GLOB_RESULTS);
    const data: GlobOutput = {
      durationMs: Date.now() - started,
      numFiles: filenames.length,
      filenames,
      truncated: sorted.length > filenames.length || listing.stoppedEarly,
      totalMatches: sorted.length,
      countIsComplete: !listing.stoppedEarly,
    };
    if (deniedSkipped > 0) data.deniedSkipped = deniedSkipped;
    return { data, content: renderForModel(data, context.cwd) };
  },
});
