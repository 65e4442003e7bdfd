/**
 * Argument and path substitution in a command body (compat-surface §5, as observed): `$ARGUMENTS`
 * is the raw text, `$ARGUMENTS[N]` and `$N` the N-th argument counted from 0 (split shell-style,
 * so `"two words"` is one), `$name` an argument named by `arguments:`. An index with no argument
 * stays as written. A body that uses none of them gets the arguments as a last paragraph.
 */

/** Splits like a shell does for words: quotes group, a backslash escapes the next character. */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      current += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) out.push(current);
  return out;
}

export type Substitutions = {
  args: string;
  argumentNames: readonly string[];
  sessionId: string;
  projectDir: string;
  /** Skills only: commands leave `${CLAUDE_SKILL_DIR}` as written. */
  skillDir?: string;
  pluginRoot?: string;
};

const POSITIONAL = /\$ARGUMENTS\[(\d+)\]|\$(\d+)(?![\d])/g;

export function substituteArguments(body: string, s: Substitutions): string {
  const words = splitArguments(s.args);
  let used = false;
  let out = body.replace(POSITIONAL, (whole, bracketed: string | undefined, bare: string | undefined) => {
    used = true;
    const value = words[Number(bracketed ?? bare)];
    return value ?? whole;
  });
  out = out.replace(/\$ARGUMENTS\b/g, () => {
    used = true;
    return s.args;
  });
  s.argumentNames.forEach((name, index) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
    out = out.replace(new RegExp(`\\$${name}\\b`, 'g'), (whole) => {
      used = true;
      return words[index] ?? whole;
    });
  });
  const variables: [string, string | undefined][] = [
    ['CLAUDE_SESSION_ID', s.sessionId],
    ['CLAUDE_PROJECT_DIR', s.projectDir],
    ['CLAUDE_SKILL_DIR', s.skillDir],
    ['CLAUDE_PLUGIN_ROOT', s.pluginRoot],
  ];
  for (const [name, value] of variables) if (value !== undefined) out = out.replaceAll(`\${${name}}`, value);
  if (!used && s.args.trim() !== '') out = `${out.trimEnd()}\n\nARGUMENTS: ${s.args}`;
  return out;
}
