/**
 * `find … -exec CMD {} +` and `fd … -x CMD`: the command reads the files the search finds, which
 * its words only stand for (`{}`, fd's `{/}`, `{.}`, … or, in fd, the path appended as `{}`). Those files
 * are whatever lies below the search's start folders, so the command's read of them is a read of
 * those folders, contents and all: a recursive read the walk of recursive-reads.ts checks against
 * Read deny rules and links out of the project, as it does for `grep -r`.
 */
import type { TouchedPath } from './shell-paths';
import type { ShellUnit } from './shell-unit';

const PLACEHOLDER = /\{(\/{0,2}|\.|\/\.)\}/;

/** The child's reads with each found-file word replaced by the search's start folders. */
export function readsOfFoundFiles(child: ShellUnit, search: ShellUnit): TouchedPath[] {
  const found = (read: TouchedPath) => PLACEHOLDER.test(read.text);
  if (!child.reads.some(found)) return child.reads;
  const starts = search.reads.filter((read) => read.recursive && !read.viaRedirect);
  return [
    ...child.reads.filter((read) => !found(read)),
    ...starts.map((read) => ({ ...read, namesOnly: false })),
  ];
}
