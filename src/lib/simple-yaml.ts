/**
 * The frontmatter most command and skill files have — `key: value` lines, `key: [a, b]` and
 * `key:` followed by `- item` lines — read without the YAML parser. Measured on 250 files, the
 * parser (its load and its first few hundred parses) cost over 100 ms of start-up, where these
 * lines take well under a millisecond. Anything beyond this subset (quoting with escapes, block
 * scalars, nesting, anchors, comments inside values) returns undefined and goes to the real parser,
 * which stays the authority. Agent files (agents/frontmatter.ts) use it too.
 */

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
const ITEM_LINE = /^[ \t]+-[ \t]+(.*)$/;
/** A plain scalar the parser would read as this same text. */
const PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`][^#]*$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

function scalar(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null' || text === '~') return null;
  if (NUMBER.test(text)) return Number(text);
  // Double quotes without escapes; single quotes without doubled quotes inside.
  if (/^"[^"\\]*"$/.test(text) || /^'[^']*'$/.test(text)) return text.slice(1, -1);
  // `a: b` inside a plain value is a nested mapping to YAML: let the parser decide.
  if (PLAIN.test(text) && !/:(\s|$)/.test(text)) return text;
  return undefined;
}

function flowList(text: string): unknown[] | undefined {
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const items = inner.split(',').map((item) => item.trim());
  const values = items.map((item) => (/[[\]{}]/.test(item) ? undefined : scalar(item)));
  return values.every((v) => v !== undefined) ? values : undefined;
}

/** The mapping, or undefined when the text needs the real parser. */
export function parseSimpleYaml(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const blockLists = new Set<string>();
  let listKey: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || /^\s*#/.test(line)) continue;
    const item = listKey === undefined ? null : ITEM_LINE.exec(line);
    if (item && listKey !== undefined) {
      const value = scalar((item[1] as string).trim());
      if (value === undefined) return undefined;
      (out[listKey] as unknown[]).push(value);
      continue;
    }
    const match = KEY_LINE.exec(line);
    if (!match) return undefined;
    const key = match[1] as string;
    const raw = match[2]?.trim();
    if (key in out) return undefined;
    listKey = undefined;
    if (raw === undefined || raw === '') {
      out[key] = [];
      blockLists.add(key);
      listKey = key;
      continue;
    }
    const value = raw.startsWith('[') && raw.endsWith(']') ? flowList(raw) : scalar(raw);
    if (value === undefined) return undefined;
    out[key] = value;
  }
  // A key with no items after it is YAML's null, not an empty list.
  for (const key of blockLists) if ((out[key] as unknown[]).length === 0) out[key] = null;
  return out;
}
