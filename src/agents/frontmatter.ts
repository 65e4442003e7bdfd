/**
 * Splits a Markdown file with YAML frontmatter (`---` lines around a YAML block at the very top)
 * into its fields and its body. The YAML parser loads only for frontmatter beyond lib/simple-yaml.ts's subset.
 */
import { isJsonObject, type JsonObject } from '../lib/json-object';
import { parseSimpleYaml } from '../lib/simple-yaml';
import { yamlErrorReason } from '../lib/yaml-error';

export type Frontmatter = { fields: JsonObject; body: string };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/** The fields and body, or a readable reason the file has none. */
export async function parseFrontmatter(text: string): Promise<Frontmatter | { problem: string }> {
  const opening = OPENING.exec(text);
  if (!opening) return { problem: 'it does not start with a `---` frontmatter block' };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { problem: 'its frontmatter block has no closing `---` line' };
  const yamlText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  // Simple `key: value` frontmatter (most agent files) is read without loading the YAML parser.
  let fields: unknown = parseSimpleYaml(yamlText);
  if (fields === undefined) {
    const { parse } = await import('yaml');
    try {
      fields = parse(yamlText);
    } catch (error) {
      // The block starts on the file's second line, after the opening `---`.
      return { problem: `its frontmatter is not valid YAML: ${yamlErrorReason(error, 1)}` };
    }
  }
  if (fields === null || fields === undefined) fields = {};
  if (!isJsonObject(fields)) return { problem: 'its frontmatter is not a set of `key: value` fields' };
  return { fields, body };
}
