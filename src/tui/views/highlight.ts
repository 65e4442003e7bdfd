/**
 * A small syntax highlighter for code blocks: keywords, strings, comments and numbers for the
 * languages answers use most. One regular-expression pass per line; no grammar is loaded, so it
 * costs nothing at start-up and never throws on odd input (a code block is untrusted text).
 */
import type { Style } from './ansi';

type Language = { keywords: ReadonlySet<string>; lineComment: string[]; hashComment?: boolean };

const words = (list: string) => new Set(list.split(' '));

const C_LIKE =
  'if else for while do switch case break continue return function const let var class new this import export from default try catch finally throw typeof instanceof in of async await yield extends implements interface type enum public private protected static readonly void null undefined true false struct fn pub use mod impl match loop mut self Self package func go defer chan select range map int string bool float double char long unsigned';

const LANGUAGES: Record<string, Language> = {
  c: { keywords: words(C_LIKE), lineComment: ['//'] },
  python: {
    keywords: words(
      'def class if elif else for while return import from as with try except finally raise lambda yield pass break continue and or not is in None True False async await global nonlocal assert del',
    ),
    lineComment: [],
    hashComment: true,
  },
  shell: {
    keywords: words(
      'if then else elif fi for while do done case esac in function return export local echo exit set',
    ),
    lineComment: [],
    hashComment: true,
  },
};

const ALIASES: Record<string, string> = {
  js: 'c',
  javascript: 'c',
  ts: 'c',
  typescript: 'c',
  tsx: 'c',
  jsx: 'c',
  java: 'c',
  go: 'c',
  rust: 'c',
  rs: 'c',
  cpp: 'c',
  'c++': 'c',
  cs: 'c',
  csharp: 'c',
  kotlin: 'c',
  swift: 'c',
  json: 'c',
  c: 'c',
  h: 'c',
  py: 'python',
  python: 'python',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  shell: 'shell',
  yaml: 'shell',
  yml: 'shell',
  toml: 'shell',
  ruby: 'python',
  rb: 'python',
};

export function languageOf(tag: string): Language | undefined {
  const name = ALIASES[tag.trim().toLowerCase()];
  return name ? LANGUAGES[name] : undefined;
}

const TOKEN =
  /("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\/\/.*$|#.*$)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_$][\w$]*)/g;

export function highlightLine(line: string, tag: string, style: Style): string {
  const language = languageOf(tag);
  if (!language || !style.color) return line;
  return line.replace(TOKEN, (match, str, comment, num, word) => {
    if (str) return style.fg('green', match);
    if (comment) {
      const isComment = match.startsWith('#') ? language.hashComment : language.lineComment.includes('//');
      if (isComment) return style.fg('gray', match);
      // Not a comment in this language ('#' in C-like code): colour the rest as plain text.
      return match.slice(0, 1) + highlightLine(match.slice(1), tag, style);
    }
    if (num) return style.fg('yellow', match);
    if (word && language.keywords.has(word)) return style.fg('magenta', match);
    return match;
  });
}
