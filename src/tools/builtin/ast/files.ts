/**
 * Which files a structural search reads: the same listing Glob makes (bundled ripgrep, so
 * .gitignore and .ignore hold), less the files a Read deny rule covers (counted, never opened)
 * and the files whose real location, symlinks resolved, lies outside the searched folder and the
 * working directories.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isWithin } from '../../../lib/path-within';
import { diskPathFs, RealPaths } from '../../../permissions/real-paths';
import type { ToolUseContext } from '../../context';
import { ToolError } from '../../tool';
import { fileRules } from '../lsp/file-rules';
import { denyExclusions } from '../shared/deny-exclusions';
import { describeFsError } from '../shared/fs-errors';
import { resolveToolPath } from '../shared/paths';
import { listSearchFiles } from '../shared/ripgrep';

/** A listing this long means the search root is far too broad. */
const MAX_LISTED_FILES = 200_000;

export type FileSelection = {
  files: string[];
  /** Files a Read deny rule covers, left out unread. */
  deniedSkipped: number;
  /** Files whose real location is outside the project (a symlink out), left out unread. */
  outsideSkipped: number;
  truncated: boolean;
};

export async function selectFiles(context: ToolUseContext, path: string | undefined): Promise<FileSelection> {
  const target = resolveToolPath(path ?? context.cwd, context.cwd);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ToolError(`Path does not exist: ${target}. The current working directory is ${context.cwd}.`);
    throw new ToolError(describeFsError(error, target));
  }
  const rules = fileRules(context);
  if (info.isFile()) {
    const verdict = rules.judge('Read', target);
    if (verdict.denied) throw new ToolError(`${target} cannot be read: ${verdict.denied.message}`);
    return { files: [target], deniedSkipped: 0, outsideSkipped: 0, truncated: false };
  }
  if (!info.isDirectory()) throw new ToolError(`${target} is neither a file nor a folder.`);
  const exclusions = denyExclusions(context, target, '.');
  const listing = await listSearchFiles(target, {
    signal: context.abortSignal,
    env: context.env,
    maxLines: MAX_LISTED_FILES,
  });
  const permissions = context.getPermissionContext();
  const roots = [
    target,
    context.projectRoot,
    ...permissions.additionalDirectories.map((d) => resolve(context.cwd, d)),
  ];
  const realPaths = new RealPaths(diskPathFs);
  const realRoots = roots.map((root) => realPaths.of(root)?.real ?? root);
  const files: string[] = [];
  let deniedSkipped = 0;
  let outsideSkipped = 0;
  for (const relativePath of listing.files) {
    if (exclusions.deniedBy(relativePath)) {
      deniedSkipped++;
      continue;
    }
    const file = resolve(target, relativePath);
    const real = realPaths.of(file);
    if (!real || !realRoots.some((root) => isWithin(real.real, root))) {
      outsideSkipped++;
      continue;
    }
    // A deny rule on the file's real location (or a link on the way) holds too.
    if (rules.readDenied(file)) {
      deniedSkipped++;
      continue;
    }
    files.push(file);
  }
  files.sort();
  return { files, deniedSkipped, outsideSkipped, truncated: listing.stoppedEarly };
}
