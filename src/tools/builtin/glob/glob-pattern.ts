/**
 * Glob matching for the Glob tool. ripgrep lists the files (honouring ignore rules) and this
 * decides which of them match: passing the pattern to `rg --glob` instead would re-include
 * gitignored files, because rg lets a `--glob` override its ignore rules.
 *
 * Syntax: `*` (within a path segment), `**` (any number of segments), `?`, `[abc]`, `[!abc]`,
 * `{a,b}` and `\` escapes. As in ripgrep and .gitignore, a pattern without `/` matches the file
 * name at any depth (`*.ts` finds `src/a.ts`).
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Translates a glob into a regular-expression source matching a whole `/`-separated path. */
function translate(pattern: string): string {
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\' && i + 1 < pattern.length) {
      out += escapeRegExp(pattern[++i]!);
    } else if (char === '*') {
      if (pattern[i + 1] === '*') {
        const atSegmentStart = i === 0 || pattern[i - 1] === '/';
        const atSegmentEnd = i + 2 >= pattern.length || pattern[i + 2] === '/';
        i++;
        if (atSegmentStart && pattern[i + 1] === '/') {
          // `**/` may match zero directories: `src/**/a.ts` matches `src/a.ts`.
          out += '(?:.*/)?';
          i++;
        } else if (atSegmentStart && atSegmentEnd) {
          out += '.*';
        } else {
          out += '[^/]*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^/' : ''}${body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')}]`;
      i = close;
    } else if (char === '{') {
      braceDepth++;
      out += '(?:';
    } else if (char === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (char === ',' && braceDepth > 0) {
      out += '|';
    } else {
      out += escapeRegExp(char);
    }
  }
  // An unclosed `{` is taken literally rather than producing an invalid expression.
  return braceDepth > 0 ? escapeRegExp(pattern) : out;
}

/** A predicate over paths relative to the search root, always written with `/`. */
export function compileGlob(pattern: string): (relativePath: string) => boolean {
  // On Windows `\` is the path separator, so it cannot also be the escape character.
  let normalized = process.platform === 'win32' ? pattern.replaceAll('\\', '/') : pattern;
  if (normalized.startsWith('./')) normalized = normalized.slice(2);
  // As in .gitignore: a `/` anywhere anchors the pattern to the root; a leading one is dropped.
  const anywhere = !normalized.includes('/');
  if (normalized.startsWith('/')) normalized = normalized.slice(1);
  const regex = new RegExp(`^${anywhere ? '(?:.*/)?' : ''}${translate(normalized)}$`);
  return (relativePath) => regex.test(relativePath);
}
