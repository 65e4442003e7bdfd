/**
 * `@path` in a submitted prompt attaches the file: the Read tool reads it (the same formatting,
 * limits, images, PDFs and notebooks the model knows, and the session's read-file record, so the
 * model may edit it without reading it again) and the content follows the prompt as a meta
 * message. `@src/` lists a folder; `@file#L10-20` reads those lines; `@"name with spaces"` quotes.
 *
 * The user named the file, so a path outside the project is read without asking — but a
 * `Read(...)` deny rule still holds: it is policy, and the mention is refused with the rule.
 */
import { realpathSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, relative } from 'node:path';
import { isWithin } from '../lib/path-within';
import type { UserContentBlock } from '../model/types';
import { describeRule } from '../permissions/evaluation';
import { diskPathFs } from '../permissions/real-paths';
import { searchExclusions } from '../permissions/search-exclusions';
import { withWorktreeCopies } from '../permissions/worktree-copies';
import { createUserMessage, type UserMessage } from '../session/messages';
import { readTool } from '../tools/builtin/read';
import { resolveToolPath } from '../tools/builtin/shared/paths';
import type { ToolUseContext } from '../tools/context';

/** `@` at the start or after whitespace; then a quoted path or a run of non-space characters. */
const MENTION = /(^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g;
const RANGE = /#L(\d+)(?:-(\d+))?$/;
const MAX_LISTED_ENTRIES = 200;

export type Mention = { text: string; path: string; startLine?: number; endLine?: number };

/** The mentions in a prompt, in order, each path once. Trailing punctuation is not part of a path. */
export function findMentions(prompt: string): Mention[] {
  const seen = new Set<string>();
  const out: Mention[] = [];
  for (const match of prompt.matchAll(MENTION)) {
    const quoted = match[2];
    let raw = quoted ?? (match[3] as string);
    if (quoted === undefined) raw = raw.replace(/[,;:!?)\]}'.]+$/, '');
    if (raw === '') continue;
    const mention: Mention = { text: `@${quoted !== undefined ? `"${quoted}"` : raw}`, path: raw };
    const range = RANGE.exec(raw);
    if (range) {
      mention.path = raw.slice(0, range.index);
      mention.startLine = Number(range[1]);
      if (range[2] !== undefined) mention.endLine = Number(range[2]);
    }
    if (seen.has(mention.text)) continue;
    seen.add(mention.text);
    out.push(mention);
  }
  return out;
}

export type MentionExpansion = {
  /** Meta messages to add after the prompt, one per attached file or folder. */
  messages: UserMessage[];
  /** The files and folders attached, for the UI's "attached …" line. */
  attached: string[];
  /** One line each for mentions that were not attached (missing, denied, unreadable). */
  problems: string[];
};

/**
 * Why a Read deny rule keeps `path` out, or undefined: judged on the path as written and on where
 * it really leads (`@env-link` with `env-link -> .env` is `.env`), as the Read tool's rules are.
 */
function deniedBecause(path: string, context: ToolUseContext): string | undefined {
  const home = homedir();
  // In a git worktree, absolute deny rules hold for its copies too.
  const rules = withWorktreeCopies(context.getPermissionContext().rules, {
    projectRoot: context.projectRoot,
    home,
    copies: context.services.copies,
  });
  for (const spelling of new Set([path, realOrSelf(path)])) {
    const exclusions = searchExclusions({
      rules,
      roots: { projectRoot: context.projectRoot, cwd: context.cwd, home },
      root: dirname(spelling),
      searchPath: '.',
      fs: diskPathFs,
    });
    const rule = exclusions.everything ?? exclusions.deniedBy(basename(spelling));
    if (rule) return describeRule(rule);
  }
  return undefined;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function shown(path: string, context: ToolUseContext): string {
  return isWithin(path, context.cwd) ? relative(context.cwd, path) || '.' : path;
}

export async function expandMentions(prompt: string, context: ToolUseContext): Promise<MentionExpansion> {
  const expansion: MentionExpansion = { messages: [], attached: [], problems: [] };
  for (const mention of findMentions(prompt)) {
    const path = resolveToolPath(mention.path, context.cwd);
    const denied = deniedBecause(path, context);
    if (denied) {
      expansion.problems.push(`${mention.text} was not attached: the deny rule ${denied} covers ${path}.`);
      continue;
    }
    let isDir: boolean;
    try {
      isDir = (await stat(path)).isDirectory();
    } catch {
      // A word without a slash or a dot is most likely an @handle in prose: nothing is said.
      if (/[/.]/.test(mention.path))
        expansion.problems.push(`${mention.text} was not attached: there is no ${path}.`);
      continue;
    }
    const header = `The user mentioned ${mention.text} (${path}).`;
    try {
      const blocks = isDir ? await folderBlocks(path, context) : await fileBlocks(path, mention, context);
      expansion.messages.push(
        createUserMessage([{ type: 'text', text: header }, ...blocks], { isMeta: true }),
      );
      expansion.attached.push(isDir ? `${shown(path, context)}/` : shown(path, context));
    } catch (error) {
      expansion.problems.push(`${mention.text} was not attached: ${(error as Error).message}`);
    }
  }
  return expansion;
}

async function fileBlocks(
  path: string,
  mention: Mention,
  context: ToolUseContext,
): Promise<UserContentBlock[]> {
  const input: Parameters<typeof readTool.call>[0] = { file_path: path };
  if (mention.startLine !== undefined) {
    input.offset = mention.startLine;
    if (mention.endLine !== undefined) input.limit = Math.max(1, mention.endLine - mention.startLine + 1);
  }
  const result = await readTool.call(input, context, () => {});
  const content = result.content ?? readTool.mapResultToContent(result.data);
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  // Only ToolSearch answers with tool references; a file's blocks are text, images and documents.
  return content.flatMap((block) => (block.type === 'tool_reference' ? [] : [block]));
}

async function folderBlocks(path: string, context: ToolUseContext): Promise<UserContentBlock[]> {
  const entries = await readdir(path, { withFileTypes: true });
  const names = entries
    .filter((e) => e.name !== '.git' && !deniedBecause(`${path}/${e.name}`, context))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
  const listed = names.slice(0, MAX_LISTED_ENTRIES);
  const more = names.length > listed.length ? `\n… and ${names.length - listed.length} more` : '';
  return [{ type: 'text', text: `Folder ${path}:\n${listed.join('\n')}${more}` }];
}
