/**
 * The option tables themselves: every command on the read-only lists has one (or a grammar of its
 * own), every table compiles and every entry is well formed, and — where the tool is installed —
 * each option the tool's own `--help` describes takes a value exactly when the table says so (a
 * wrong arity would hide the next word, which may be a path, from the checks).
 */

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { withCalibrationTools } from '../../permissions/calibration-tools';
import { GIT_LIST_MODE_TABLES } from './git-list-modes';
import { GIT_SUBCOMMANDS } from './git-subcommands';
import { compileTable, type OptionArity, type OptionTable, UNSAFE_EFFECTS } from './option-table';
import {
  BASH_LIST_COMMANDS,
  BASH_READ_COMMANDS,
  BASH_SEARCH_COMMANDS,
  BASH_SEMANTIC_NEUTRAL_COMMANDS,
  BASH_WRAPPER_COMMANDS,
  GRAMMAR_COMMANDS,
  optionTableSources,
} from './read-only-commands';
import { SED_TABLE } from './sed';
import { JQ_TABLE } from './special-commands';
import { wrapperTableSources } from './tables/wrappers';
import { hasWrapperTable, SHELL_INTERPRETERS } from './wrappers';

// `rg` is the ripgrep Yoke ships, `fd` Debian's fdfind (calibration-tools.ts).
process.env.PATH = withCalibrationTools();

const LISTED = [
  ...BASH_SEARCH_COMMANDS,
  ...BASH_READ_COMMANDS,
  ...BASH_LIST_COMMANDS,
  ...BASH_SEMANTIC_NEUTRAL_COMMANDS,
];

const compiled = (name: string, source: Parameters<typeof compileTable>[0]) =>
  [name, compileTable(source)] as const;
const ALL_TABLES: ReadonlyArray<readonly [string, OptionTable]> = [
  ...Object.entries(optionTableSources()).map(([name, source]) => compiled(name, source)),
  ...Object.entries(wrapperTableSources()).map(([name, source]) => compiled(name, source)),
  ...Object.entries(GIT_SUBCOMMANDS).map(([name, source]) => compiled(`git ${name}`, source)),
  ...GIT_LIST_MODE_TABLES.map((source) => compiled(source.manual, source)),
  ['sed', SED_TABLE],
  ['jq', JQ_TABLE],
];

describe('option tables', () => {
  it('cover every command on the read-only lists', () => {
    const missing = LISTED.filter((name) => !optionTableSources()[name] && !GRAMMAR_COMMANDS[name]);
    expect(missing).toEqual([]);
  });

  it('cover every wrapper, or the wrapper runs shell code (checked as a script)', () => {
    const scriptRunners = new Set([...SHELL_INTERPRETERS, 'eval']);
    const missing = [...BASH_WRAPPER_COMMANDS].filter(
      (name) => !hasWrapperTable(name) && !scriptRunners.has(name),
    );
    expect(missing).toEqual([]);
  });

  it.each(ALL_TABLES)('%s: every entry is well formed', (_name, table) => {
    expect(table.manual).not.toBe('');
    // Every combination of modes is tried for a word that may be any option: keep them few.
    expect(table.allModes.size).toBeLessThanOrEqual(4);
    for (const [name, spec] of [...table.short, ...table.long]) {
      expect(['none', 'required', 'optional', 'pair']).toContain(spec.arity);
      // A refusal names what the option does.
      if (UNSAFE_EFFECTS.has(spec.effect)) expect(spec.why, `${name} says why it is unsafe`).toBeTruthy();
      if (spec.effect === 'flag') expect(spec.arity, `${name}: a flag takes no value`).toBe('none');
      expect(name).toMatch(/^[A-Za-z0-9?@.][A-Za-z0-9-]*$/);
    }
  });
});

/**
 * One option token: its name and value spelling, ending where a help line's token ends (a comma,
 * two spaces, or the line's end) — so prose that starts with an option (`-e/--regexp flag, …`,
 * `--type-clear is used`) is not read as one.
 */
const OPTION_TOKEN =
  /^-{1,2}([A-Za-z0-9][\w-]*)(\[=?[^\]]*\]|=\S+| <[^>]+>(?:\.\.\.)?| [A-Za-z][\w-]*(?=,|\s{2}|$))?(?=,|\s{2}|\s*$)/;

/** The option tokens at the start of a `--help` line: `-o, --output=FILE`, `-c  --format=FORMAT`. */
type HelpToken = { name: string; arity: OptionArity; value?: string };

function optionTokens(line: string): HelpToken[] {
  const out: HelpToken[] = [];
  let rest = line.trim();
  for (;;) {
    const match = OPTION_TOKEN.exec(rest);
    if (!match) break;
    const value = match[2];
    out.push({
      name: match[1] as string,
      arity: !value ? 'none' : value.startsWith('[') ? 'optional' : 'required',
      ...(value ? { value: value.replace(/^[=\s]/, '') } : {}),
    });
    rest = rest.slice(match[0].length);
    const separator = /^(,\s*|\s+)(?=-)/.exec(rest);
    if (!separator) break;
    rest = rest.slice(separator[0].length);
  }
  return out;
}

/**
 * Arity per option from a whole `--help` text. A long option shown both with and without a value
 * (`--check`, `--check=quiet`) takes an optional one. "Mandatory arguments to long options are
 * mandatory for short options too": a bare short option beside a long one that requires a value
 * requires it too — unless that line shows one fixed value (`-p, --indicator-style=slash`). A bare
 * short beside an optional long may be a switch or take a glued value: not compared.
 */
function helpArities(text: string): Map<string, OptionArity> {
  const lines = text
    .split('\n')
    .filter((line) => /^\s{1,8}-/.test(line))
    .map(optionTokens);
  const long = new Map<string, Set<OptionArity>>();
  const values = new Map<string, Set<string>>();
  for (const token of lines.flat()) {
    if (token.name.length === 1) continue;
    long.set(token.name, (long.get(token.name) ?? new Set()).add(token.arity));
    if (token.value) values.set(token.name, (values.get(token.name) ?? new Set()).add(token.value));
  }
  const arityOf = (name: string): OptionArity => {
    const seen = long.get(name) as Set<OptionArity>;
    return seen.size > 1 ? 'optional' : ([...seen][0] as OptionArity);
  };
  const fixedValue = (token: HelpToken) =>
    token.value !== undefined && /^[a-z-]+$/.test(token.value) && (values.get(token.name)?.size ?? 0) > 1;
  const out = new Map<string, OptionArity>();
  for (const tokens of lines) {
    const longs = tokens.filter((t) => t.name.length > 1);
    for (const token of longs) out.set(token.name, arityOf(token.name));
    const longArity = longs[0] ? arityOf(longs[0].name) : undefined;
    for (const token of tokens.filter((t) => t.name.length === 1)) {
      if (token.value !== undefined || longArity === undefined || longArity === 'none')
        out.set(token.name, token.arity);
      else if (longArity === 'required' && !longs.some(fixedValue)) out.set(token.name, 'required');
      else if (longArity === 'required') out.set(token.name, 'none');
    }
  }
  return out;
}

/** Options whose `--help` line leaves out the value they take (checked against the tools' sources). */
const HELP_OMITS_VALUE: Readonly<Record<string, readonly string[]>> = {
  // net-tools hostname.c: getopt "aAdfbF:h?iIsVvy"; `-F, --file` is followed by a file name.
  hostname: ['F', 'file'],
  // file 5.44 file.c: "P:" in the getopt string; `-P, --parameter name=value`.
  file: ['P', 'parameter'],
  // shasum's GetOptions: 'a|algorithm=i'.
  shasum: ['a', 'algorithm'],
};

/** Tools whose `--help` is not getopt's layout, and bash builtins (their tables come from `help NAME`). */
const NOT_HELP_CHECKED = new Set(['jq', 'strings', 'tree', 'ag', 'which', 'whereis', 'time', 'printf']);
const BUILTINS = new Set([
  'type',
  'cd',
  ':',
  'test',
  '[',
  'command',
  'builtin',
  'exec',
  'echo',
  'true',
  'false',
]);
const HELP_CHECKED: ReadonlyArray<readonly [string, OptionTable]> = ALL_TABLES.filter(
  ([name]) => !name.includes(' ') && !NOT_HELP_CHECKED.has(name) && !BUILTINS.has(name),
);

function help(command: string): string | undefined {
  try {
    return execFileSync(command, ['--help'], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const out = (error as { stdout?: string }).stdout;
    return out && out.length > 0 ? out : undefined;
  }
}

describe('option tables agree with the installed tools', () => {
  it.for(HELP_CHECKED)('%s --help', ([name, table], ctx) => {
    const text = help(name);
    if (!text) {
      ctx.skip(`${name} is not installed on this machine`);
      return;
    }
    const wrong: string[] = [];
    for (const [option, arity] of helpArities(text)) {
      if (HELP_OMITS_VALUE[name]?.includes(option)) continue;
      const spec = option.length === 1 ? table.short.get(option) : table.long.get(option);
      if (spec && spec.arity !== arity)
        wrong.push(`${option}: --help says ${arity}, the table ${spec.arity}`);
    }
    expect(wrong).toEqual([]);
  });
});
