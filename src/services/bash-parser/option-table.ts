/**
 * The vocabulary of the option tables: what each option of a read-only command does, as far as a
 * permission decision cares, and what its operands are. The tables themselves (in `tables/`) are
 * data written from each tool's manual; `option-parse.ts` reads a command line against them the
 * way getopt_long does, and `command-effects.ts` turns the result into reads, writes and reasons.
 */

/** What an option's value (or the option itself) does. */
export type OptionEffect =
  /** Harmless: changes only what is printed or how input is read. */
  | 'flag'
  /** Takes a harmless value (a count, a pattern, a format). */
  | 'value'
  /** The value is a path the command reads; checked against Read rules and the project. */
  | 'read'
  /** The value is a file of path names to read: which paths are read is unknown. */
  | 'readList'
  /** The value (if any) is a path the command writes; never read-only. */
  | 'write'
  /** Runs another program; never read-only. */
  | 'run'
  /** The value is a directory the command works in; relative paths resolve against it. */
  | 'chdir'
  /** The value names a shell variable the command assigns. */
  | 'setVar'
  /** Changes the machine's state (the clock, the host name); never read-only. */
  | 'changes'
  /** The value is a file holding a program the command interprets (`sed -f`): unseen, so unknown. */
  | 'scriptFile';

export type OptionArity =
  | 'none'
  /** `--name=value`, `--name value`, `-xVALUE`, `-x VALUE`. */
  | 'required'
  /** Only `--name=value` or `-xVALUE`; a separate word is an operand. */
  | 'optional'
  /** Two separate words: a name, then the value the effect applies to (`jq --rawfile NAME FILE`). */
  | 'pair';

export type OptionSpec = {
  readonly arity: OptionArity;
  readonly effect: OptionEffect;
  /** A switch the operand layout reacts to (`grep -r` → 'recursive', `md5sum -c` → 'check'). */
  readonly mode?: string;
  /** Modes set by particular values, matched like argmatch does (a unique prefix): `-d recurse`. */
  readonly valueModes?: Readonly<Record<string, string>>;
  /** A read path is searched recursively (`rg --search-path`, `diff --from-file` of a folder). */
  readonly recursive?: boolean;
  /** What it does, for the refusal line: "runs PROG to compress temporary files". */
  readonly why?: string;
};

/** What an operand is. */
export type OperandRole =
  | 'read'
  | 'write'
  /** A pattern, a name, a number: not a path. */
  | 'data'
  | 'readList'
  | 'changes'
  /** `date` operands: `+FORMAT` prints, anything else sets the clock. */
  | 'dateOperand';

export type OperandLayout = {
  /** Roles of the first operands, in order. */
  readonly leading: readonly OperandRole[];
  /** Role of every operand after the leading ones. */
  readonly rest: OperandRole;
  /** Paths read when no operand is a read path (`ls` → `.`, `grep -r PAT` → `.`). */
  readonly whenNone?: readonly string[];
  /** Read operands (and `whenNone`) are searched recursively. */
  readonly recursive?: boolean;
  /** The recursion lists names and metadata only (`ls -R`, `tree`, `du`, `fd`): no content is read. */
  readonly namesOnly?: boolean;
  /** Whether the recursion follows symlinks below the operands; absent: it may. */
  readonly followsLinks?: boolean;
  /** What a `-` operand is: standard input (the default), or an unknown directory (`cd -`). */
  readonly dash?: 'stdin' | 'unknown';
  /** What a `changes` operand does, for the refusal line ("creates a branch"). */
  readonly why?: string;
};

export type ParseOrder =
  /** GNU getopt: options may follow operands until `--`. */
  | 'permute'
  /** Options end at the first operand (`env`, `xargs`, `timeout`, POSIX-style tools). */
  | 'stop';

/** How a table is written: option names (`'o output'`: short `-o`, long `--output`) to specs. */
export type TableSource = {
  /** Where the table was read from, e.g. "GNU coreutils 9.1, sort --help". */
  readonly manual: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly operands: OperandLayout | ((modes: ReadonlySet<string>) => OperandLayout);
  readonly order?: ParseOrder;
  /** `-NUM` is a count (`head -5`, `grep -3`, `seq -1 3`). */
  readonly numeric?: boolean;
  /** `--no-NAME` turns off any listed `--NAME` (git's parse-options). */
  readonly negatable?: boolean;
  /** No option parsing at all: every word is an operand (`echo`, `true`, `test`). */
  readonly noOptions?: boolean;
};

export type OptionTable = {
  readonly manual: string;
  readonly short: ReadonlyMap<string, OptionSpec>;
  readonly long: ReadonlyMap<string, OptionSpec>;
  /** Long names in table order, for abbreviation lookups. */
  readonly longNames: readonly string[];
  /** Each name's main spelling: the first long name of its entry (`e` → `--expression`). */
  readonly primary: ReadonlyMap<string, string>;
  readonly operands: (modes: ReadonlySet<string>) => OperandLayout;
  readonly order: ParseOrder;
  readonly numeric: boolean;
  readonly negatable: boolean;
  readonly noOptions: boolean;
  /** The most harmful thing any option can do: what a word that might be any option could do. */
  readonly worstOption?: { name: string; spec: OptionSpec };
  /** Every mode an option can switch on: what a word that might be any option could switch on. */
  readonly allModes: ReadonlySet<string>;
};

/** Effects that make an invocation not read-only whatever the value. */
export const UNSAFE_EFFECTS: ReadonlySet<OptionEffect> = new Set([
  'readList',
  'write',
  'run',
  'chdir',
  'setVar',
  'changes',
  'scriptFile',
]);

const spec = (arity: OptionArity, effect: OptionEffect, extra: Partial<OptionSpec> = {}): OptionSpec => ({
  arity,
  effect,
  ...extra,
});

/** A harmless switch. */
export const FLAG: OptionSpec = spec('none', 'flag');
/** A harmless value: `-n 5`, `--format=%s`. */
export const VALUE: OptionSpec = spec('required', 'value');
/** A harmless value given only as `--name=value` or `-xVALUE`. */
export const OPTIONAL: OptionSpec = spec('optional', 'value');
/** The value is a file the command reads. */
export const READ: OptionSpec = spec('required', 'read');

export const mode = (name: string, arity: OptionArity = 'none'): OptionSpec =>
  spec(arity, arity === 'none' ? 'flag' : 'value', { mode: name });
export const valueModes = (modes: Record<string, string>, arity: OptionArity = 'required'): OptionSpec =>
  spec(arity, 'value', { valueModes: modes });
export const readRecursive = (): OptionSpec => spec('required', 'read', { recursive: true });
export const readList = (why: string, arity: OptionArity = 'required'): OptionSpec =>
  spec(arity, 'readList', { why });
export const write = (why: string, arity: OptionArity = 'required'): OptionSpec =>
  spec(arity, 'write', { why });
export const run = (why: string, arity: OptionArity = 'required'): OptionSpec => spec(arity, 'run', { why });
export const changes = (why: string, arity: OptionArity = 'required'): OptionSpec =>
  spec(arity, 'changes', { why });
export const scriptFile = (why: string, arity: OptionArity = 'required'): OptionSpec =>
  spec(arity, 'scriptFile', { why });
export const chdir = (why: string): OptionSpec => spec('required', 'chdir', { why });
export const setVar = (why: string): OptionSpec => spec('required', 'setVar', { why });

/** Every operand is a file read; `-` is standard input. */
export const FILES: OperandLayout = { leading: [], rest: 'read' };
/**
 * A recursive listing of names and metadata (`tree`, `du`, `fd`): every read operand, or `.`
 * when there is none, with symlinks below followed only when an option sets the mode 'follow'.
 */
export const listing =
  (leading: readonly OperandRole[] = []) =>
  (modes: ReadonlySet<string>): OperandLayout => ({
    leading,
    rest: 'read',
    whenNone: ['.'],
    recursive: true,
    namesOnly: true,
    followsLinks: modes.has('follow'),
  });

/** Operands are names, numbers or text, never paths. */
export const DATA: OperandLayout = { leading: [], rest: 'data' };
/** No operand is expected; any given is treated as data (the tool rejects it). */
export const NONE: OperandLayout = DATA;

const EFFECT_RANK: Record<OptionEffect, number> = {
  flag: 0,
  value: 0,
  read: 1,
  readList: 2,
  setVar: 2,
  chdir: 2,
  scriptFile: 3,
  changes: 3,
  write: 3,
  run: 4,
};

export function effectRank(effect: OptionEffect): number {
  return EFFECT_RANK[effect];
}

type CompiledOptions = Pick<
  OptionTable,
  'short' | 'long' | 'longNames' | 'primary' | 'allModes' | 'worstOption'
>;

/**
 * A table whose lookup maps are built on its first use. Every table is declared when the parser
 * module loads, but a session that never runs a shell command never consults one: building them
 * all up front was a few milliseconds of every start.
 */
export function compileTable(source: TableSource): OptionTable {
  let options: CompiledOptions | undefined;
  const built = () => {
    options ??= compileOptions(source);
    return options;
  };
  const operands = source.operands;
  return {
    manual: source.manual,
    get short() {
      return built().short;
    },
    get long() {
      return built().long;
    },
    get longNames() {
      return built().longNames;
    },
    get primary() {
      return built().primary;
    },
    get allModes() {
      return built().allModes;
    },
    get worstOption() {
      return built().worstOption;
    },
    operands: typeof operands === 'function' ? operands : () => operands,
    order: source.order ?? 'permute',
    numeric: source.numeric ?? false,
    negatable: source.negatable ?? false,
    noOptions: source.noOptions ?? false,
  };
}

/** Builds the lookup maps of a table; throws on a malformed entry (caught by the table test). */
function compileOptions(source: TableSource): CompiledOptions {
  const short = new Map<string, OptionSpec>();
  const long = new Map<string, OptionSpec>();
  const longNames: string[] = [];
  const primary = new Map<string, string>();
  const allModes = new Set<string>();
  let worst: { name: string; spec: OptionSpec } | undefined;
  for (const [names, option] of Object.entries(source.options)) {
    const all = names.split(' ');
    if (option.mode) allModes.add(option.mode);
    for (const mode of Object.values(option.valueModes ?? {})) allModes.add(mode);
    const main = all.find((name) => name.length > 1) ?? all[0];
    for (const name of all) {
      primary.set(name, main === undefined ? name : main.length === 1 ? `-${main}` : `--${main}`);
      if (name.length === 0) throw new Error(`${source.manual}: empty option name in '${names}'`);
      if (name.startsWith('-')) throw new Error(`${source.manual}: write '${name}' without dashes`);
      const map = name.length === 1 ? short : long;
      if (map.has(name)) throw new Error(`${source.manual}: option '${name}' listed twice`);
      map.set(name, option);
      if (name.length > 1) longNames.push(name);
      if (!worst || effectRank(option.effect) > effectRank(worst.spec.effect))
        worst = { name: name.length === 1 ? `-${name}` : `--${name}`, spec: option };
    }
  }
  return { short, long, longNames, primary, allModes, worstOption: worst };
}
