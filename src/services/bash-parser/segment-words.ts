/**
 * The words of the segments that are not plain commands: assignments, declarations
 * (`export A=1`) and test expressions (`[[ -f x ]]`).
 */
import type { Node } from 'web-tree-sitter';
import type { ShellSegment, ShellWord } from './types';
import { decodeWord, literalWord } from './words';

/** Node types that form one word; their insides are decoded, not walked as statements. */
const WORD_NODE_TYPES: ReadonlySet<string> = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'number',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'brace_expression',
  'extglob_pattern',
  'regex',
]);

export function parseAssignment(node: Node): ShellSegment['assignments'][number] {
  const name = node.firstNamedChild?.text ?? '';
  const valueNode = node.childForFieldName('value');
  const append = node.children.some((c) => c.type === '+=');
  return { name, value: valueNode ? decodeWord(valueNode) : literalWord(''), append };
}

/** `export A=$(x) B`: the keyword, then each argument; an assignment becomes one `NAME=value` word. */
export function declarationWords(node: Node): ShellWord[] {
  const argv: ShellWord[] = [];
  for (const child of node.children) {
    if (!child.isNamed) {
      if (argv.length === 0) argv.push(literalWord(child.text));
    } else if (child.type === 'variable_assignment') {
      const { name, value } = parseAssignment(child);
      argv.push({ ...value, text: child.text, value: `${name}=${value.value}`, tilde: false });
    } else argv.push(decodeWord(child));
  }
  return argv;
}

/** The words of `[[ … ]]`/`[ … ]` in order, brackets and operators included. */
export function testWords(node: Node): ShellWord[] {
  const words: ShellWord[] = [];
  const visit = (current: Node): void => {
    if (WORD_NODE_TYPES.has(current.type)) words.push(decodeWord(current));
    else if (current.childCount === 0) words.push(literalWord(current.text));
    else for (const child of current.children) visit(child);
  };
  visit(node);
  return words;
}
