/** A rewrite template filled from one match: `$NAME` by its node's text, `$$$NAME` by its sequence. */
import type { SgNode } from '@ast-grep/napi';
import { ToolError } from '../../tool';

const METAVARIABLE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

export function fillRewrite(template: string, node: SgNode, source: string): string {
  return template.replace(METAVARIABLE, (whole, sequence: string | undefined, single: string | undefined) => {
    if (sequence !== undefined) {
      const nodes = node.getMultipleMatches(sequence);
      const first = nodes[0];
      const last = nodes[nodes.length - 1];
      if (!first || !last) return '';
      // The source between the first and last node keeps their separators (commas, newlines).
      return source.slice(first.range().start.index, last.range().end.index);
    }
    const name = single as string;
    if (name === '_')
      throw new ToolError(
        'The rewrite uses $_, which binds nothing: name it ($X) in the pattern and the rewrite.',
      );
    const match = node.getMatch(name);
    if (!match) throw new ToolError(`The rewrite uses ${whole}, which the pattern does not bind.`);
    return match.text();
  });
}
