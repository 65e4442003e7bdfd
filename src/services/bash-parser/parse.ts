/**
 * `parseCommand`: one walk over the tree-sitter tree that lists every simple command a line would
 * run — across operators, pipelines, subshells, groups, substitutions, control flow and function
 * bodies — with its words, env prefix, redirects and surroundings.
 */
import type { Node } from 'web-tree-sitter';
import {
  arithmeticCommandReason,
  arrayKeysReason,
  assignmentNameReason,
  descriptorVariableReason,
  testExpressionReason,
  wordsReason,
} from './evaluation-sites';
import { loadBashParser } from './loader';
import { parseFileRedirect, parseHeredoc, parseHerestring, REDIRECT_NODE_TYPES } from './redirects';
import { declarationWords, parseAssignment, testWords } from './segment-words';
import type {
  ParsedCommand,
  SegmentContext,
  SegmentKind,
  ShellRedirect,
  ShellSegment,
  ShellWord,
} from './types';
import { decodeWord, literalWord } from './words';

type WalkState = { context: SegmentContext; inherited: ShellRedirect[] };

type Collector = Omit<ParsedCommand, 'source' | 'parseError'>;

/** What a segment adds beyond its words: why it evaluates code, the loop variable it assigns. */
type SegmentExtras = { evaluates?: string | undefined; loopVariable?: string };

const ROOT_CONTEXT: SegmentContext = {
  inCommandSubstitution: false,
  inProcessSubstitution: false,
  inSubshell: false,
  inFunction: false,
  inPipeline: false,
  inBackground: false,
  inHeredoc: false,
  conditional: false,
};

const withContext = (state: WalkState, patch: Partial<SegmentContext>): WalkState => ({
  ...state,
  context: { ...state.context, ...patch },
});

class Walker {
  constructor(private readonly source: string) {}

  /** Redirects the grammar attached to a list, waiting for that list's last command. */
  private readonly pendingRedirects = new Map<number, Node[]>();

  readonly out: Collector = {
    segments: [],
    redirects: [],
    hasCommandSubstitution: false,
    hasProcessSubstitution: false,
    hasHeredoc: false,
    hasFunctionDefinition: false,
    hasBackground: false,
  };

  walk(node: Node, state: WalkState): void {
    const pending = this.pendingRedirects.get(node.id);
    if (pending) {
      this.pendingRedirects.delete(node.id);
      this.withRedirects(node, pending, state);
      return;
    }
    switch (node.type) {
      case 'command':
        this.command(node, [], state);
        break;
      case 'redirected_statement':
        this.redirectedStatement(node, state);
        break;
      case 'variable_assignment':
      case 'variable_assignments':
        // The initialiser of `for ((i=0; …))` is arithmetic, not a shell assignment.
        if (node.parent?.type !== 'c_style_for_statement') this.assignmentOnly(node, state);
        break;
      case 'declaration_command':
      case 'unset_command':
        this.declaration(node, state);
        break;
      case 'test_command': {
        const words = testWords(node);
        const redirects = [...state.inherited];
        const evaluates = wordsReason(words, [], redirects) ?? testExpressionReason(words);
        this.emit('test', words, [], redirects, node, state, node.endIndex, { evaluates });
        this.nested(node, state);
        break;
      }
      case 'compound_statement':
        if (node.firstChild?.type === '((') this.arithmeticCommand(node, state);
        this.children(node, state);
        break;
      case 'c_style_for_statement':
        this.arithmeticCommand(node, state);
        this.children(node, state);
        break;
      case 'for_statement':
      case 'case_statement':
        this.compoundWords(node, state);
        this.children(node, state);
        break;
      case 'command_substitution':
      case 'process_substitution':
        this.nested(node, state);
        break;
      case 'subshell':
        this.children(node, withContext(state, { inSubshell: true }));
        break;
      case 'pipeline':
        this.children(node, withContext(state, { inPipeline: true }));
        break;
      case 'function_definition':
        this.out.hasFunctionDefinition = true;
        this.children(node, withContext(state, { inFunction: true }));
        break;
      default:
        this.children(node, state);
    }
  }

  /** Walks statement children, tracking `&`, and what runs only under a condition. */
  private children(node: Node, state: WalkState): void {
    let conditional = false;
    for (const child of node.children) {
      if (!child.isNamed) {
        if (child.type === 'then') conditional = true;
        if (child.type === '&') this.out.hasBackground = true;
        continue;
      }
      let childState = state;
      if (conditional || child.type === 'do_group' || child.type === 'case_item') {
        childState = withContext(childState, { conditional: true });
      }
      if (child.nextSibling?.type === '&') childState = withContext(childState, { inBackground: true });
      this.walk(child, childState);
      if (node.type === 'list') conditional = true;
    }
  }

  /** Finds substitutions inside words (arguments, targets, heredoc bodies) and walks their commands. */
  private nested(node: Node, state: WalkState): void {
    if (node.type === 'command_substitution') {
      this.out.hasCommandSubstitution = true;
      const inner = withContext(state, { inCommandSubstitution: true });
      this.children(node, inner);
      // `$(<file)` reads the file with no command: the grammar hangs the redirect on the substitution.
      const reads = node.namedChildren.filter(
        (child): child is Node => child !== null && REDIRECT_NODE_TYPES.has(child.type),
      );
      if (reads.length > 0)
        this.emit('redirection', [], [], this.redirectsOf(reads, false).redirects, node, inner);
      return;
    }
    if (node.type === 'process_substitution') {
      this.out.hasProcessSubstitution = true;
      this.children(node, withContext(state, { inProcessSubstitution: true }));
      return;
    }
    const inner = node.type === 'heredoc_body' ? withContext(state, { inHeredoc: true }) : state;
    for (const child of node.namedChildren) if (child) this.nested(child, inner);
  }

  private redirectedStatement(node: Node, state: WalkState): void {
    const body = node.childForFieldName('body');
    const redirectNodes = node.namedChildren.filter(
      (child): child is Node => child !== null && REDIRECT_NODE_TYPES.has(child.type),
    );
    if (!body) {
      this.emit('redirection', [], [], this.redirectsOf(redirectNodes, false).redirects, node, state);
      return;
    }
    if (body.type === 'list' || body.type === 'pipeline') {
      // The grammar hangs `a && b > f` and `a | b > f` on the whole list; the shell binds the
      // redirect to the last command only, so carry it there.
      let last = body;
      while ((last.type === 'list' || last.type === 'pipeline') && last.lastNamedChild)
        last = last.lastNamedChild;
      this.pendingRedirects.set(last.id, redirectNodes);
      this.walk(body, state);
      return;
    }
    this.withRedirects(body, redirectNodes, state);
  }

  /** Walks `body` with redirects that apply to it: its own if a command, inherited if a compound. */
  private withRedirects(body: Node, redirectNodes: Node[], state: WalkState): void {
    if (body.type === 'command') {
      this.command(body, redirectNodes, state);
      return;
    }
    const redirects = this.redirectsOf(redirectNodes, true).redirects;
    this.walk(body, { ...state, inherited: [...state.inherited, ...redirects] });
    for (const child of redirectNodes) this.redirectInsides(child, state);
  }

  private command(node: Node, extraRedirects: Node[], state: WalkState): void {
    const argv: ShellWord[] = [];
    const assignments: ShellSegment['assignments'] = [];
    const redirectNodes: Node[] = [];
    let lastArg: Node | undefined;
    for (const child of [...node.namedChildren, ...extraRedirects]) {
      if (!child) continue;
      if (child.type === 'variable_assignment') assignments.push(parseAssignment(child));
      else if (child.type === 'command_name') {
        // `FOO=1 > f` yields an empty command name: there is no command, only the prefix.
        if (child.text !== '') argv.push(decodeWord(child.firstNamedChild ?? child));
      } else if (REDIRECT_NODE_TYPES.has(child.type)) redirectNodes.push(child);
      else {
        argv.push(decodeWord(child));
        lastArg = child;
      }
    }
    const { redirects, strayArguments } = this.redirectsOf(redirectNodes, false, { argv, lastArg });
    argv.push(...strayArguments);
    const kind: SegmentKind =
      argv.length > 0 ? 'command' : assignments.length > 0 ? 'assignment' : 'redirection';
    const end = Math.max(node.endIndex, ...redirectNodes.filter(isInlineRedirect).map((r) => r.endIndex));
    const allRedirects = [...state.inherited, ...redirects];
    const evaluates =
      wordsReason(argv, assignments, allRedirects) ?? this.descriptorVariables(node, redirectNodes);
    this.emit(kind, argv, assignments, allRedirects, node, state, end, { evaluates });
    for (const child of node.namedChildren) if (child) this.nested(child, state);
    for (const child of redirectNodes) this.redirectInsides(child, state);
  }

  /**
   * Parses redirect nodes. `argv`/`lastArg` let a digit glued to a redirect (`cat 0<f`), which the
   * grammar leaves as an argument, be taken back as the redirect's file descriptor.
   */
  private redirectsOf(
    nodes: Node[],
    inherited: boolean,
    fdFix?: { argv: ShellWord[]; lastArg: Node | undefined },
  ): { redirects: ShellRedirect[]; strayArguments: ShellWord[] } {
    const redirects: ShellRedirect[] = [];
    const strayArguments: ShellWord[] = [];
    for (const node of nodes) {
      let fd: number | undefined;
      const hasFd = node.children.some((c) => c.type === 'file_descriptor');
      if (fdFix?.lastArg?.type === 'number' && fdFix.lastArg.endIndex === node.startIndex && !hasFd) {
        fd = Number(fdFix.lastArg.text);
        fdFix.argv.pop();
        fdFix.lastArg = undefined;
      }
      if (node.type === 'file_redirect') {
        const parsed = parseFileRedirect(node, inherited, fd);
        redirects.push(parsed.redirect);
        strayArguments.push(...parsed.strayArguments);
      } else if (node.type === 'herestring_redirect') {
        redirects.push(parseHerestring(node, inherited, fd));
      } else {
        this.out.hasHeredoc = true;
        redirects.push(parseHeredoc(node, inherited, fd));
        // `cat <<EOF > out` nests the file redirect inside the heredoc node.
        for (const child of node.namedChildren) {
          if (child?.type === 'file_redirect') redirects.push(parseFileRedirect(child, inherited).redirect);
        }
      }
    }
    this.out.redirects.push(...redirects);
    return { redirects, strayArguments };
  }

  /** Substitutions in targets and heredoc bodies, and statements the grammar hangs on a heredoc. */
  private redirectInsides(node: Node, state: WalkState): void {
    if (node.type !== 'heredoc_redirect') {
      this.nested(node, state);
      return;
    }
    for (const child of node.namedChildren) {
      if (!child || child.type === 'heredoc_start' || child.type === 'heredoc_end') continue;
      // `cat <<EOF | grep x` parses the rest of the line inside the heredoc node.
      if (child.type === 'heredoc_body' || child.type === 'file_redirect') this.nested(child, state);
      else this.walk(child, state);
    }
  }

  /**
   * `{name[x]}>f` assigns a descriptor number to a subscripted name. The grammar leaves the
   * `{…}` word as an argument, so it is recognised by touching the redirect that follows it.
   */
  private descriptorVariables(node: Node, redirectNodes: readonly Node[]): string | undefined {
    const starts = new Set(redirectNodes.map((r) => r.startIndex));
    for (const child of node.namedChildren) {
      if (!child || !starts.has(child.endIndex)) continue;
      const reason = descriptorVariableReason(child.text);
      if (reason) return reason;
    }
    return undefined;
  }

  private assignmentOnly(node: Node, state: WalkState): void {
    const nodes = node.type === 'variable_assignments' ? node.namedChildren : [node];
    const assignments = nodes.filter((n): n is Node => n !== null).map((n) => parseAssignment(n));
    const redirects = [...state.inherited];
    // Calibrated: `a[x]=1` and `a=([x]=1)` evaluate `x`; as a prefix (`a[x]=1 cmd`) bash
    // rejects the name instead, which is why this is checked here and not for commands.
    const evaluates =
      wordsReason([], assignments, redirects) ??
      assignments.map((a) => assignmentNameReason(a.name) ?? arrayKeysReason(a.value.value)).find(Boolean);
    this.emit('assignment', [], assignments, redirects, node, state, node.endIndex, { evaluates });
    this.nested(node, state);
  }

  private declaration(node: Node, state: WalkState): void {
    const words = declarationWords(node);
    const redirects = [...state.inherited];
    const evaluates = wordsReason(words, [], redirects);
    this.emit('declaration', words, [], redirects, node, state, node.endIndex, { evaluates });
    this.nested(node, state);
  }

  /** `(( … ))` and the header of `for (( … ))`: arithmetic the shell evaluates itself. */
  private arithmeticCommand(node: Node, state: WalkState): void {
    const header = node.type === 'c_style_for_statement' ? node.childForFieldName('body') : null;
    const end = header ? header.startIndex : node.endIndex;
    const text = this.source.slice(node.startIndex, end).trim();
    const redirects = [...state.inherited];
    const evaluates = arithmeticCommandReason(node) ?? wordsReason([], [], redirects);
    this.emit('compound', [literalWord(text)], [], redirects, node, state, node.startIndex + text.length, {
      evaluates,
    });
  }

  /** The words a `for`/`select` list or a `case` subject and its patterns expand. */
  private compoundWords(node: Node, state: WalkState): void {
    const valueNodes =
      node.type === 'case_statement'
        ? [
            ...node.childrenForFieldName('value'),
            ...node.namedChildren.flatMap((item) =>
              item?.type === 'case_item' ? item.childrenForFieldName('value') : [],
            ),
          ]
        : node.childrenForFieldName('value');
    const words = valueNodes.filter((n): n is Node => n !== null).map((n) => decodeWord(n));
    const redirects = [...state.inherited];
    const extras: SegmentExtras = { evaluates: wordsReason(words, [], redirects) };
    const variable = node.type === 'for_statement' ? node.childForFieldName('variable') : null;
    if (variable) extras.loopVariable = variable.text;
    const end = Math.max(variable?.endIndex ?? node.startIndex, ...valueNodes.map((n) => n?.endIndex ?? 0));
    this.emit('compound', words, [], redirects, node, state, end, extras);
  }

  private emit(
    kind: SegmentKind,
    argv: ShellWord[],
    assignments: ShellSegment['assignments'],
    redirects: ShellRedirect[],
    node: Node,
    state: WalkState,
    endIndex = node.endIndex,
    extras: SegmentExtras = {},
  ): void {
    const segment: ShellSegment = {
      kind,
      argv,
      assignments,
      redirects,
      context: state.context,
      text: this.source.slice(node.startIndex, endIndex),
      startIndex: node.startIndex,
      endIndex,
    };
    if (extras.evaluates) segment.evaluates = extras.evaluates;
    if (extras.loopVariable !== undefined) segment.loopVariable = extras.loopVariable;
    this.out.segments.push(segment);
  }
}

const isInlineRedirect = (node: Node) => node.type !== 'heredoc_redirect';

/** Parses a command line into segments. Never throws on bad shell: it sets `parseError`. */
export async function parseCommand(source: string): Promise<ParsedCommand> {
  const parser = await loadBashParser();
  const tree = parser.parse(source);
  if (!tree) throw new Error('The bash parser returned no tree.');
  try {
    const walker = new Walker(source);
    walker.walk(tree.rootNode, { context: ROOT_CONTEXT, inherited: [] });
    return { source, ...walker.out, parseError: tree.rootNode.hasError };
  } finally {
    // Trees live in wasm memory, which the JS garbage collector does not reclaim.
    tree.delete();
  }
}
