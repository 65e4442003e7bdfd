/**
 * Redirect nodes → `ShellRedirect`. Kept apart from the tree walk because the permission layer's
 * write checks depend on exactly these rules (which operators touch a file and which only
 * duplicate a descriptor).
 */
import type { Node } from 'web-tree-sitter';
import { expansionReason } from './evaluation-sites';
import type { RedirectKind, ShellRedirect, ShellWord } from './types';
import { decodeWord } from './words';

export const REDIRECT_NODE_TYPES: ReadonlySet<string> = new Set([
  'file_redirect',
  'heredoc_redirect',
  'herestring_redirect',
]);

/** Targets that swallow or echo output: writing to them changes no file. */
export const HARMLESS_WRITE_TARGETS: ReadonlySet<string> = new Set([
  '/dev/null',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
]);

/** True when a redirect writes to a real file (not `/dev/null`, not an fd duplication). */
export function isFileWrite(redirect: ShellRedirect): boolean {
  if (!redirect.writesFile) return false;
  const target = redirect.target;
  return !target || target.dynamic || target.glob || !HARMLESS_WRITE_TARGETS.has(target.value);
}

const FD_PATTERN = /^\d+$/;

function fileRedirectKind(operator: string, target: ShellWord | undefined): RedirectKind {
  switch (operator) {
    case '>':
    case '>|':
    case '&>':
      return 'write';
    case '>>':
    case '&>>':
      return 'append';
    case '<':
      return 'read';
    case '<>':
      return 'read-write';
    case '>&-':
    case '<&-':
      return 'close';
    case '>&':
    case '<&':
      if (target?.value === '-') return 'close';
      if (target && !target.dynamic && FD_PATTERN.test(target.value)) return 'dup';
      // `>&word` with a non-number is bash's spelling of `&>word`: a write to a file.
      return operator === '>&' ? 'write' : 'read';
    default:
      // Unknown operators are treated as writes so a checker fails closed.
      return 'write';
  }
}

export type ParsedFileRedirect = {
  redirect: ShellRedirect;
  /** Words the grammar hung on the redirect that are really command arguments (`echo > f hi`). */
  strayArguments: ShellWord[];
};

export function parseFileRedirect(node: Node, inherited: boolean, fdOverride?: number): ParsedFileRedirect {
  let fd = fdOverride;
  let operator = '';
  const words: ShellWord[] = [];
  for (const child of node.children) {
    if (child.type === 'file_descriptor') fd = Number(child.text);
    else if (!child.isNamed) operator += child.text;
    else words.push(decodeWord(child));
  }
  // The grammar reads `3<>FILE` as `<` with a word `>` and FILE after it. bash opens FILE for
  // reading and writing (calibrated: `echo x 1<>f` overwrote the start of f).
  if (operator === '<' && words[0]?.text === '>' && /^\d*<>/.test(node.text)) {
    operator = '<>';
    words.shift();
  }
  const [target, ...strayArguments] = words;
  const kind = fileRedirectKind(operator, target);
  const redirect: ShellRedirect = {
    operator,
    kind,
    writesFile: kind === 'write' || kind === 'append' || kind === 'read-write',
    inherited,
    text: node.text,
  };
  if (fd !== undefined) redirect.fd = fd;
  if (target) redirect.target = target;
  if (target?.evaluates) redirect.evaluates = target.evaluates;
  return { redirect, strayArguments };
}

export function parseHerestring(node: Node, inherited: boolean, fd?: number): ShellRedirect {
  const targetNode = node.namedChildren.find((child): child is Node => child !== null);
  const redirect: ShellRedirect = {
    operator: '<<<',
    kind: 'herestring',
    writesFile: false,
    inherited,
    text: node.text,
  };
  if (fd !== undefined) redirect.fd = fd;
  if (targetNode) redirect.target = decodeWord(targetNode);
  if (redirect.target?.evaluates) redirect.evaluates = redirect.target.evaluates;
  return redirect;
}

/** The heredoc itself; nested redirects and statements inside the node are handled by the walk. */
export function parseHeredoc(node: Node, inherited: boolean, fd?: number): ShellRedirect {
  let operator = '<<';
  let delimiterText = '';
  let body = '';
  let bodyNode: Node | undefined;
  for (const child of node.children) {
    if (child.type === '<<' || child.type === '<<-') operator = child.type;
    else if (child.type === 'heredoc_start') delimiterText = child.text;
    else if (child.type === 'heredoc_body') {
      body = child.text;
      bodyNode = child;
    }
  }
  const quoted = /['"\\]/.test(delimiterText);
  const redirect: ShellRedirect = {
    operator,
    kind: 'heredoc',
    writesFile: false,
    inherited,
    text: node.text,
    heredoc: { delimiter: delimiterText.replace(/['"\\]/g, ''), quoted, body },
  };
  if (fd !== undefined) redirect.fd = fd;
  // An unquoted delimiter makes the body expand like a double-quoted string.
  const evaluates = !quoted && bodyNode ? expansionReason(bodyNode) : undefined;
  if (evaluates) redirect.evaluates = evaluates;
  return redirect;
}
