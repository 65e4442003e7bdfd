/** Grep: searches file contents with ripgrep regular expressions. */
import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { isWithin } from '../../../lib/path-within';
import * as z from '../../../lib/zod';
import { buildTool, ToolError } from '../../tool';
import { pathForModel, sortNewestFirst } from '../glob/search-results';
import { denyExclusions } from '../shared/deny-exclusions';
import { describeFsError } from '../shared/fs-errors';
import { resolveToolPath } from '../shared/paths';
import { describeSpecialFile, specialFileRefusal } from '../shared/regular-file';
import { type RipgrepOptions, ripgrepAvailability, runRipgrep } from '../shared/ripgrep';
import { buildGrepArgs, listingArgs } from './args';
import prompt from './prompt.md';
import { type GrepOutput, renderGrepResult } from './render';

export const DEFAULT_HEAD_LIMIT = 250;
/** Even with `head_limit: 0` the result must fit in memory; past this the search stops. */
const MAX_COLLECTED_LINES = 200_000;

const contextLines = z.number().check(z.int(), z.minimum(0));
const inputSchema = z.lazy(() =>
  z.strictObject({
    pattern: z
      .string()
      .check(z.minLength(1), z.describe('Regular expression (ripgrep syntax) to search for')),
    path: z
      .optional(z.string())
      .check(z.describe('File or directory to search (default: the current working directory)')),
    glob: z
      .optional(z.string())
      .check(z.describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}"')),
    type: z
      .optional(z.string())
      .check(z.describe('Only search this file type (rg --type), e.g. "js", "py", "rust"')),
    output_mode: z
      .optional(z.enum(['content', 'files_with_matches', 'count']))
      .check(
        z.describe(
          '"files_with_matches" (default): paths; "content": matching lines; "count": matches per file',
        ),
      ),
    '-i': z.optional(z.boolean()).check(z.describe('Ignore case')),
    '-n': z.optional(z.boolean()).check(z.describe('Show line numbers (content mode; default true)')),
    '-A': z.optional(contextLines).check(z.describe('Lines of context after each match (content mode)')),
    '-B': z.optional(contextLines).check(z.describe('Lines of context before each match (content mode)')),
    '-C': z
      .optional(contextLines)
      .check(z.describe('Lines of context before and after each match (content mode)')),
    context: z.optional(contextLines).check(z.describe('Same as -C')),
    '-o': z.optional(z.boolean()).check(z.describe('Show only the matched part of each line (content mode)')),
    multiline: z
      .optional(z.boolean())
      .check(z.describe('Let the pattern span lines; "." also matches newlines')),
    head_limit: z
      .optional(z.number().check(z.int(), z.minimum(0)))
      .check(z.describe('Return at most this many lines or entries (default 250; 0 = no limit)')),
    offset: z
      .optional(z.number().check(z.int(), z.minimum(0)))
      .check(z.describe('Skip this many lines or entries first (for paging)')),
  }),
);
export type GrepInput = z.infer<typeof inputSchema>;

async function assertExists(path: string, cwd: string): Promise<void> {
  try {
    // rg skips special files in a folder but reads one it is given: a FIFO would hang the search.
    const kind = describeSpecialFile(await stat(path));
    if (kind && kind !== 'a directory') throw new ToolError(await specialFileRefusal(path, kind, 'read'));
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ToolError(`Path does not exist: ${path}. The current working directory is ${cwd}.`);
    }
    throw new ToolError(describeFsError(error, path));
  }
}

/** Absolute path of an rg output path, which is relative to the cwd rg ran in. */
function absolute(rgPath: string, cwd: string): string {
  return resolve(cwd, rgPath);
}

/**
 * How many files the search would have read that a deny rule covers: the same listing rg
 * searches (same ignore rules and filters, without the exclusions), matched against the rules.
 * Undefined when the listing failed or was cut short, so no exact number can be given.
 */
async function countDenied(
  args: string[],
  options: RipgrepOptions,
  target: string,
  deniedBy: (rel: string) => unknown,
): Promise<number | undefined> {
  const listing = await runRipgrep(args, options);
  if (listing.exitCode === 2 || listing.stoppedEarly) return undefined;
  let count = 0;
  for (const line of listing.lines) {
    if (line && deniedBy(relative(target, resolve(options.cwd, line)).split('\\').join('/'))) count++;
  }
  return count;
}

function stripDotSlash(line: string): string {
  return line.startsWith('./') ? line.slice(2) : line;
}

export const grepTool = buildTool<GrepInput, GrepOutput>({
  name: 'Grep',
  tier: 'read',
  access: 'file-read',
  inputSchema,
  prompt,
  description: (input) => `Grep "${input.pattern}"${input.path ? ` in ${input.path}` : ''}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  interruptBehavior: () => 'cancel',
  availability: ripgrepAvailability,
  toAutoClassifierInput: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
  mapResultToContent: (output) => renderGrepResult(output, undefined),
  async call(input, context) {
    const mode = input.output_mode ?? 'files_with_matches';
    const target = resolveToolPath(input.path ?? context.cwd, context.cwd);
    await assertExists(target, context.cwd);
    const offset = input.offset ?? 0;
    const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;

    // rg runs in the cwd for a search below it, else in `/` with an absolute path: either way
    // the deny exclusions' anchored globs and the paths rg prints line up.
    const rgCwd = isWithin(target, context.cwd) ? context.cwd : '/';
    const searchPath = target === rgCwd ? '.' : rgCwd === '/' ? target : relative(rgCwd, target);
    const exclusions = denyExclusions(context, target, searchPath);
    const filters = { glob: input.glob, type: input.type };
    const args = buildGrepArgs(
      {
        pattern: input.pattern,
        mode,
        glob: input.glob,
        type: input.type,
        ignoreCase: input['-i'],
        lineNumbers: input['-n'],
        after: input['-A'],
        before: input['-B'],
        context: input['-C'] ?? input.context,
        onlyMatching: input['-o'],
        multiline: input.multiline,
        exclude: exclusions.globs,
      },
      searchPath,
    );
    // Content arrives in a stable order, so rg can stop as soon as the requested page is complete
    // (one extra line tells whether more remain).
    const maxLines =
      mode === 'content' && limit > 0
        ? Math.min(offset + limit + 1, MAX_COLLECTED_LINES)
        : MAX_COLLECTED_LINES;
    const rgOptions = { cwd: rgCwd, signal: context.abortSignal, env: context.env };
    const [result, skipped] = await Promise.all([
      runRipgrep(args, { ...rgOptions, maxLines }),
      exclusions.globs.length === 0
        ? 0
        : countDenied(listingArgs(filters, searchPath), rgOptions, target, exclusions.deniedBy),
    ]);
    if (result.exitCode === 2 && result.lines.length === 0) {
      throw new ToolError(`The search failed: ${result.stderr || 'ripgrep exited with an error'}`);
    }

    const lines = result.lines.filter((line) => line !== '').map(stripDotSlash);
    const page = <T>(items: T[]) => {
      const sliced = limit > 0 ? items.slice(offset, offset + limit) : items.slice(offset);
      const cut = (limit > 0 && items.length > offset + limit) || result.stoppedEarly;
      return { items: sliced, appliedLimit: cut && limit > 0 ? limit : undefined };
    };
    const withPaging = (data: GrepOutput, appliedLimit: number | undefined): GrepOutput => {
      if (appliedLimit !== undefined) data.appliedLimit = appliedLimit;
      if (offset > 0) data.appliedOffset = offset;
      return data;
    };

    let data: GrepOutput;
    if (mode === 'files_with_matches') {
      const sorted = await sortNewestFirst(lines.map((line) => absolute(line, rgCwd)));
      const { items, appliedLimit } = page(sorted);
      data = withPaging({ mode, numFiles: items.length, filenames: items }, appliedLimit);
    } else if (mode === 'count') {
      const entries = lines.map((line) => {
        const colon = line.lastIndexOf(':');
        return {
          file: absolute(line.slice(0, colon), rgCwd),
          count: Number(line.slice(colon + 1)) || 0,
        };
      });
      const { items, appliedLimit } = page(entries);
      data = withPaging(
        {
          mode,
          numFiles: items.length,
          filenames: items.map((entry) => entry.file),
          content: items.map((entry) => `${pathForModel(entry.file, context.cwd)}:${entry.count}`).join('\n'),
          numMatches: items.reduce((sum, entry) => sum + entry.count, 0),
        },
        appliedLimit,
      );
    } else {
      const { items, appliedLimit } = page(lines);
      data = withPaging(
        { mode, numFiles: 0, filenames: [], content: items.join('\n'), numLines: items.length },
        appliedLimit,
      );
    }
    if (skipped !== 0) data.deniedSkipped = skipped ?? null;
    // In content mode with a limit, stopping early is the normal way a page ends.
    const capped = result.stoppedEarly && (mode !== 'content' || limit === 0);
    return { data, content: renderGrepResult(data, context.cwd, capped) };
  },
});
