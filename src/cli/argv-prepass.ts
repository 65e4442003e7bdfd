/**
 * Normalizes argv before commander sees it. The SDK and scripts send flags in every form —
 * `--x=v`, `--x v`, bare `--x`, empty `--x=` — and flags this version does not know. Commander
 * cannot tell an unknown flag's value from the prompt, so this pass does it once, predictably:
 *
 * - a known flag becomes its canonical long form: `--name=value` or bare `--name`;
 * - an unknown flag is dropped with a one-line warning, together with the next token when that
 *   token does not look like a flag (it is taken to be the flag's value; the warning names it);
 *   the warning suggests the nearest flag of Yoke's;
 * - an unknown flag that is a near miss of a flag taking a value (`--max-turn 3`) stops the run:
 *   running on without the limit, budget or rule the user meant is worse than not running. A
 *   flag Claude Code knows is never taken for a typo — newer SDKs pass flags Yoke does not have;
 * - a rule list flag given as a separate word takes the words after it that are rules or tool
 *   names too, as Claude Code's variadic option does, up to the first other word (list-words.ts);
 * - everything after `--` is positional.
 */
import type { Command } from 'commander';
import { nearestName } from '../lib/edit-distance';
import { CLAUDE_CODE_FLAGS } from './claude-code-flags';
import { CliUsageError } from './errors';
import { listWordCount, RULE_LIST_FLAGS } from './list-words';

export type FlagKind = 'boolean' | 'value' | 'optional';
export type FlagSpec = { canonical: string; kind: FlagKind };
/** Every spelling (`-p`, `--print`, `--allowedTools`, `--allowed-tools`) → its spec. */
export type FlagTable = ReadonlyMap<string, FlagSpec>;

export type PrepassResult = { args: string[]; warnings: string[] };

/** The flag table of a commander program: its options plus help. */
export function flagTable(program: Command): FlagTable {
  const table = new Map<string, FlagSpec>();
  for (const option of program.options) {
    const canonical = option.long ?? option.short;
    if (!canonical) continue;
    const kind: FlagKind = option.required ? 'value' : option.optional ? 'optional' : 'boolean';
    for (const name of [option.short, option.long]) if (name) table.set(name, { canonical, kind });
  }
  table.set('-h', { canonical: '--help', kind: 'boolean' });
  table.set('--help', { canonical: '--help', kind: 'boolean' });
  return table;
}

/** A token that starts another flag rather than being a value (`-` alone and `-3` are values). */
export function looksLikeFlag(token: string): boolean {
  return token.startsWith('-') && token !== '-' && !/^-\d/.test(token);
}

type UnknownFlag = {
  /** What the warning calls the flag (`unknown option `, or nothing), and what it adds after it. */
  what: string;
  hint: string;
  /** Set when the flag must stop the run: the one line to stop with. */
  stop?: string;
  /** A near miss of a boolean flag: it is taken to have no value. */
  bare?: boolean;
};

function unknownFlag(name: string, table: FlagTable): UnknownFlag {
  if (CLAUDE_CODE_FLAGS.has(name)) {
    return { what: '', hint: ': a Claude Code option Yoke does not support yet' };
  }
  const near = name.startsWith('--') ? nearestName(name, table.keys()) : undefined;
  if (near === undefined) return { what: 'unknown option ', hint: '' };
  if (table.get(near)?.kind === 'value') {
    return {
      what: 'unknown option ',
      hint: '',
      stop: `unknown option ${name}; did you mean ${near}? (not running without it)`,
    };
  }
  return { what: 'unknown option ', hint: `; did you mean ${near}?`, bare: true };
}

/**
 * Optional-value flags whose next word is their value, as in Claude Code: `--resume <id>` names a
 * session (without one, the REPL opens the picker). The others (`--worktree`, `--debug`) go last.
 */
const OPTIONAL_TAKING_NEXT: ReadonlySet<string> = new Set(['--resume']);

const TRUE_VALUES = /^(true|1|yes|)$/i;
const FALSE_VALUES = /^(false|0|no)$/i;

export function prepassArgv(argv: readonly string[], table: FlagTable): PrepassResult {
  const args: string[] = [];
  const warnings: string[] = [];
  // Bare flags with an optional value (`--worktree`, `--debug`) go last, where commander cannot
  // take the next word (the prompt) for their value.
  const bareOptional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--') {
      args.push(...bareOptional.splice(0), ...argv.slice(i));
      break;
    }
    if (!looksLikeFlag(token)) {
      args.push(token);
      continue;
    }
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const name = eq > 0 ? token.slice(0, eq) : token;
    let value = eq > 0 ? token.slice(eq + 1) : undefined;
    const spec = table.get(name);
    const next = argv[i + 1];

    if (!spec) {
      const unknown = unknownFlag(name, table);
      if (unknown.stop) throw new CliUsageError(unknown.stop);
      // A near miss of a boolean flag takes no value: the next word is the prompt.
      if (value === undefined && !unknown.bare && next !== undefined && !looksLikeFlag(next)) {
        value = next;
        i++;
      }
      const detail = value === undefined ? '' : ` and its value ${JSON.stringify(value)}`;
      warnings.push(`ignoring ${unknown.what}${name}${detail}${unknown.hint}`);
      continue;
    }

    switch (spec.kind) {
      case 'boolean':
        if (value === undefined || TRUE_VALUES.test(value)) args.push(spec.canonical);
        else if (!FALSE_VALUES.test(value)) {
          throw new CliUsageError(`${name} takes no value (got ${JSON.stringify(value)}).`);
        }
        break;
      case 'optional':
        if (
          value === undefined &&
          OPTIONAL_TAKING_NEXT.has(spec.canonical) &&
          next !== undefined &&
          !looksLikeFlag(next)
        ) {
          value = next;
          i++;
        }
        if (value === undefined) bareOptional.push(spec.canonical);
        else args.push(`${spec.canonical}=${value}`);
        break;
      case 'value':
        if (value === undefined) {
          if (next === undefined || looksLikeFlag(next)) {
            throw new CliUsageError(`${name} needs a value, e.g. ${name}=<value>.`);
          }
          value = next;
          i++;
          if (RULE_LIST_FLAGS.has(spec.canonical)) {
            // Claude Code's variadic form, `--allowedTools Read Edit`: the list's other words.
            const more = listWordCount(argv.slice(i + 1), looksLikeFlag);
            args.push(`${spec.canonical}=${value}`);
            for (const word of argv.slice(i + 1, i + 1 + more)) args.push(`${spec.canonical}=${word}`);
            i += more;
            break;
          }
        }
        args.push(`${spec.canonical}=${value}`);
        break;
    }
  }
  args.push(...bareOptional);
  return { args, warnings };
}
