/**
 * The folder each command of a line runs in. `cd /etc && cat passwd` reads `/etc/passwd`, so a
 * relative path is resolved against every folder its command could be in: after `a && b`, `b`
 * runs where `a` left the shell when it succeeded; after `a; b` or `a || b`, also where a failed
 * `cd` left it. Subshells, pipeline stages, substitutions and background jobs never move their
 * parent. Loops repeat until the set of folders is stable. After `cd -`, `cd "$X"`, a bare `cd`,
 * `pushd`/`popd`, `eval`, `source`, a dynamic command name or a function that may change folder,
 * the folder is unknown: nothing relative is proven from there on.
 *
 * Lines without any folder-changing command skip the walk: every command runs where the line
 * starts.
 */
import type { Node } from 'web-tree-sitter';
import { loadBashParser, type ParsedCommand, type ShellSegment } from '../services/bash-parser';
import {
  type CwdContext,
  commandMove,
  type Flow,
  inShellCommand,
  mayMoveShell,
  type ShellCwd,
  sameCwd,
  stays,
  unionCwd,
} from './shell-cd';

const STATEMENTS = new Set([
  'command',
  'redirected_statement',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'function_definition',
  'negated_command',
  'declaration_command',
  'unset_command',
  'test_command',
  'variable_assignment',
  'variable_assignments',
]);
/** Statements whose parts may run several times or in any order: folded to a stable union. */
const BRANCHING = new Set([
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'case_item',
]);
const MAX_PASSES = 4;

class CwdWalk {
  private readonly states = new Map<number, ShellCwd>();
  private readonly segments = new Map<number, ShellSegment>();
  /** Functions defined in the line whose bodies may move the shell. */
  private readonly movingFunctions = new Set<string>();

  constructor(
    parsed: ParsedCommand,
    private readonly context: CwdContext,
  ) {
    for (const segment of parsed.segments) this.segments.set(segment.startIndex, segment);
  }

  stateOf(segment: ShellSegment): ShellCwd {
    return (
      this.states.get(segment.startIndex) ?? { unknown: 'the folder this part runs in could not be traced' }
    );
  }

  /** Records which defined functions may move the shell (by name), before the walk. */
  findMovingFunctions(root: Node): void {
    const definitions: Node[] = [];
    const collect = (node: Node) => {
      if (node.type === 'function_definition') definitions.push(node);
      for (const child of node.namedChildren) if (child) collect(child);
    };
    collect(root);
    const names = new Set(definitions.map((d) => d.childForFieldName('name')?.text ?? ''));
    for (const definition of definitions) {
      const body = definition.childForFieldName('body');
      if (!body) continue;
      for (const segment of this.segments.values()) {
        if (segment.startIndex < body.startIndex || segment.startIndex >= body.endIndex) continue;
        const name = inShellCommand(segment.argv).name;
        if (mayMoveShell(segment) || (name !== undefined && names.has(name))) {
          this.movingFunctions.add(definition.childForFieldName('name')?.text ?? '');
          break;
        }
      }
    }
  }

  private record(node: Node, state: ShellCwd): void {
    const known = this.states.get(node.startIndex);
    this.states.set(node.startIndex, known ? unionCwd(known, state) : state);
  }

  run(node: Node, start: ShellCwd, additive: boolean): Flow {
    switch (node.type) {
      case 'program':
      case 'compound_statement':
      case 'do_group':
        return this.sequence(node, start, additive);
      case 'subshell':
        this.sequence(node, start, additive);
        return stays(start);
      case 'list':
        return this.list(node, start, additive);
      case 'pipeline':
        // Every stage runs in a subshell of its own.
        for (const child of node.namedChildren) if (child) this.run(child, start, additive);
        return stays(start);
      case 'negated_command': {
        const inner = node.namedChildren[0];
        const flow = inner ? this.run(inner, start, additive) : stays(start);
        return { ok: flow.fail, fail: flow.ok };
      }
      case 'redirected_statement':
        return this.redirected(node, start, additive);
      case 'command':
        this.record(node, start);
        this.substitutions(node, start);
        return this.commandFlow(node, start, additive);
      case 'declaration_command':
      case 'unset_command':
      case 'test_command':
      case 'variable_assignment':
      case 'variable_assignments':
        this.record(node, start);
        this.substitutions(node, start);
        return stays(start);
      case 'function_definition': {
        const body = node.childForFieldName('body');
        if (body)
          this.run(body, { unknown: 'a function body runs wherever the function is called' }, additive);
        return stays(start);
      }
      case 'comment':
        return stays(start);
      default:
        return BRANCHING.has(node.type)
          ? this.branching(node, start, additive)
          : this.unfamiliar(node, start);
    }
  }

  private sequence(node: Node, start: ShellCwd, additive: boolean): Flow {
    let state = start;
    let last = stays(start);
    for (const child of node.namedChildren) {
      if (!child || child.type === 'comment') continue;
      if (!STATEMENTS.has(child.type)) {
        this.substitutions(child, state);
        continue;
      }
      const flow = this.run(child, state, additive);
      if (child.nextSibling?.type === '&') {
        last = stays(state);
        continue;
      }
      last = flow;
      state = unionCwd(flow.ok, flow.fail);
    }
    return last;
  }

  private list(node: Node, start: ShellCwd, additive: boolean): Flow {
    let flow: Flow | undefined;
    let operator = '';
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        operator = child.type;
        continue;
      }
      if (!flow) {
        flow = this.run(child, start, additive);
        continue;
      }
      if (operator === '&&') {
        const next = this.run(child, flow.ok, additive);
        flow = { ok: next.ok, fail: unionCwd(flow.fail, next.fail) };
      } else if (operator === '||') {
        const next = this.run(child, flow.fail, additive);
        flow = { ok: unionCwd(flow.ok, next.ok), fail: next.fail };
      } else {
        const next = this.run(child, unionCwd(flow.ok, flow.fail), additive);
        flow = next;
      }
    }
    return flow ?? stays(start);
  }

  private redirected(node: Node, start: ShellCwd, additive: boolean): Flow {
    const body = node.childForFieldName('body');
    if (!body) this.record(node, start);
    let flow = body ? this.run(body, start, additive) : stays(start);
    for (const child of node.namedChildren) {
      if (!child || child === body || child.id === body?.id) continue;
      // The grammar may hang the rest of a line inside a heredoc redirect (`cat <<E | x && y`):
      // its commands are walked without trusting that shape.
      if (child.type === 'heredoc_redirect') {
        const extra = this.unfamiliar(child, start);
        flow = { ok: unionCwd(flow.ok, extra.ok), fail: unionCwd(flow.fail, extra.fail) };
      } else this.substitutions(child, start);
    }
    return flow;
  }

  /** If/case/loops: every part starts from the union of all states seen, until stable. */
  private branching(node: Node, start: ShellCwd, additive: boolean): Flow {
    let acc = start;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const before = acc;
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (STATEMENTS.has(child.type) || BRANCHING.has(child.type) || child.type === 'do_group') {
          const flow = this.run(child, acc, additive);
          acc = unionCwd(acc, unionCwd(flow.ok, flow.fail));
        } else this.substitutions(child, acc);
      }
      if (sameCwd(before, acc)) return stays(acc);
    }
    return stays({ unknown: 'a loop keeps changing the folder' });
  }

  /** A shape not modelled above: its commands run additively, folders only ever accumulate. */
  private unfamiliar(node: Node, start: ShellCwd): Flow {
    let acc = start;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const before = acc;
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (STATEMENTS.has(child.type) || BRANCHING.has(child.type)) {
          const flow = this.run(child, acc, true);
          acc = unionCwd(acc, unionCwd(flow.ok, flow.fail));
        } else if (child.type === 'command_substitution' || child.type === 'process_substitution') {
          this.sequence(child, acc, true);
        } else acc = unionCwd(acc, this.unfamiliar(child, acc).ok);
      }
      if (sameCwd(before, acc)) return stays(acc);
    }
    return stays({ unknown: 'the folder this part runs in could not be traced' });
  }

  /** Substitutions run in subshells, from the state of the command they belong to. */
  private substitutions(node: Node, state: ShellCwd): void {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'command_substitution' || child.type === 'process_substitution')
        this.sequence(child, state, false);
      else if (child.type === 'heredoc_redirect') this.unfamiliar(child, state);
      else this.substitutions(child, state);
    }
  }

  private commandFlow(node: Node, start: ShellCwd, additive: boolean): Flow {
    const segment = this.segments.get(node.startIndex);
    if (segment?.kind !== 'command') return stays(start);
    const flow = commandMove(segment, start, this.context, this.movingFunctions);
    if (!flow) return stays(start);
    // Where the grammar's shape is not trusted, a move adds a folder instead of replacing one.
    return additive ? { ok: unionCwd(start, flow.ok), fail: unionCwd(start, flow.fail) } : flow;
  }
}

/**
 * The folder each segment of `parsed` starts in, given the folder the line starts in. The walk
 * parses the line once more (tree shape is not kept by `parseCommand`), only when some segment
 * may move the shell.
 */
export async function cwdOfSegments(
  parsed: ParsedCommand,
  start: ShellCwd,
  context: CwdContext,
): Promise<(segment: ShellSegment) => ShellCwd> {
  if (!parsed.segments.some(mayMoveShell)) return () => start;
  const parser = await loadBashParser();
  const tree = parser.parse(parsed.source);
  if (!tree) return () => ({ unknown: 'the command could not be parsed' });
  try {
    const walk = new CwdWalk(parsed, context);
    walk.findMovingFunctions(tree.rootNode);
    walk.run(tree.rootNode, start, false);
    return (segment) => walk.stateOf(segment);
  } finally {
    tree.delete();
  }
}
