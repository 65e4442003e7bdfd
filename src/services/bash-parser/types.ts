/**
 * The structured view of a shell command line that permission checks, the read-only classifier
 * and the Bash tool share. Everything here comes from a real parse (tree-sitter-bash), so quoted
 * or escaped operators never split a command and every nested command is visible.
 */

/** One shell word (an argument, an assignment value, a redirect target). */
export type ShellWord = {
  /** The source text, exactly as written. */
  text: string;
  /**
   * The word after quote removal and escape processing. For a dynamic word the expansions keep
   * their source text (e.g. `x$HOME` stays `x$HOME`), so never treat it as the runtime value.
   */
  value: string;
  /** Contains a parameter, command, arithmetic or process expansion: the runtime value is unknown. */
  dynamic: boolean;
  /** Contains an unquoted glob (`*`, `?`, `[`) or brace expansion: may become several words. */
  glob: boolean;
  /** Starts with an unquoted `~`: the shell expands it to a home directory. */
  tilde: boolean;
  /**
   * Why expanding this word evaluates a value as code (an arithmetic subscript `${a[x]}`, `$((x))`,
   * `${!x}`, `${x@P}`): a variable may hold `a[$(cmd)]`. Absent when nothing is evaluated.
   */
  evaluates?: string;
  /** Contains `$(…)`, backticks, `<(…)` or `>(…)`: part of its value is another command's output. */
  substitution?: true;
};

export type RedirectKind =
  | 'write' // >, >|, &>  (truncates or creates the target file)
  | 'append' // >>, &>>
  | 'read' // <
  | 'read-write' // <>
  | 'dup' // >&N, <&N  (duplicates a file descriptor: no file is touched)
  | 'close' // >&-, <&-
  | 'heredoc' // <<, <<-
  | 'herestring'; // <<<

export type ShellRedirect = {
  /** The operator as written: `>`, `>>`, `2>`, `&>`, `>&`, `<<`, `<<<`, … (without the fd). */
  operator: string;
  kind: RedirectKind;
  /** The explicit file descriptor (`2` in `2>&1`); absent when the default applies. */
  fd?: number;
  /** The file, fd number or here-string; absent for `>&-` and heredocs. */
  target?: ShellWord;
  /** True when a file named by `target` may be created or modified. */
  writesFile: boolean;
  heredoc?: { delimiter: string; quoted: boolean; body: string };
  /** The redirect belongs to an enclosing compound (`{ a; b; } > f`) rather than this command. */
  inherited: boolean;
  text: string;
  /** Why expanding the target or an unquoted heredoc body evaluates a value as code. */
  evaluates?: string;
};

export type SegmentKind =
  /** An ordinary simple command (`argv` is non-empty). */
  | 'command'
  /** `X=1` alone: sets a shell variable, runs nothing (`argv` is empty). */
  | 'assignment'
  /** `export`, `declare`, `local`, `readonly`, `typeset`, `unset` (`argv[0]` is the keyword). */
  | 'declaration'
  /** `[[ … ]]`, `[ … ]` written as a test expression (`argv` holds its words). */
  | 'test'
  /** Redirects with no command at all, e.g. `> file` (which truncates `file`). */
  | 'redirection'
  /**
   * The part of a compound command the shell evaluates itself: the words of a `for`/`select`
   * list or a `case` subject and patterns, or the expression of `(( … ))` and `for (( … ))`.
   * It runs no program (`argv` holds those words; `loopVariable` the variable a loop assigns).
   */
  | 'compound';

/** Where a segment sits. Flags are true when any enclosing construct is of that kind. */
export type SegmentContext = {
  inCommandSubstitution: boolean;
  inProcessSubstitution: boolean;
  inSubshell: boolean;
  inFunction: boolean;
  inPipeline: boolean;
  /** Started with a trailing `&`. */
  inBackground: boolean;
  /** Inside a heredoc body (a substitution there runs when the heredoc is read). */
  inHeredoc: boolean;
  /** The command can only run if an `if`/`while`/`case`/`&&`/`||` condition allows it. */
  conditional: boolean;
};

/** One simple command, after splitting on every operator and opening every nested construct. */
export type ShellSegment = {
  kind: SegmentKind;
  /** Command name and arguments. */
  argv: ShellWord[];
  /** Environment prefix (`FOO=1 cmd`), or the assignments of an assignment-only segment. */
  assignments: Array<{ name: string; value: ShellWord; append: boolean }>;
  /** Redirects of this command, including those inherited from an enclosing compound. */
  redirects: ShellRedirect[];
  context: SegmentContext;
  /** The segment's source text (without inherited redirects). */
  text: string;
  startIndex: number;
  endIndex: number;
  /**
   * Why running this segment evaluates a value as code although nothing in it looks like code:
   * an expansion in a word, prefix value or redirect (see `ShellWord.evaluates`), an arithmetic
   * test `[[ $x -eq 1 ]]`, `[[ -v $x ]]`, `(( x ))`, a subscripted assignment `a[x]=1`, a
   * `{a[x]}>f` redirect. Builtins that evaluate arguments (`let`, `printf -v`, `read`, `declare
   * -i`, …) are judged on the argv by `builtinReason`, so wrappers see them too.
   */
  evaluates?: string;
  /** For a `for`/`select` header: the variable the loop assigns each word to. */
  loopVariable?: string;
};

export type ParsedCommand = {
  source: string;
  /** Every simple command in source order (outer before the substitutions inside it). */
  segments: ShellSegment[];
  /** Every redirect in the command line, once each. */
  redirects: ShellRedirect[];
  hasCommandSubstitution: boolean;
  hasProcessSubstitution: boolean;
  hasHeredoc: boolean;
  hasFunctionDefinition: boolean;
  hasBackground: boolean;
  /** The parse has ERROR or MISSING nodes: the shell may read it differently. Fail closed. */
  parseError: boolean;
};
