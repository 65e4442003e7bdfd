/**
 * Read and Edit deny rules against what no path check settles. First, code Yoke does not read as
 * code: what an interpreter is handed inline (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, an
 * awk program), in a here-document or here-string, on its input, or in a script file
 * (`python3 script.py`, which the model may just have written), a local program (`./build.sh`),
 * and the shell code a line hides (`bash x.sh`, `… | sh`, `eval "$x"`). None of it has an option
 * table to say what it reads or writes, and each can print a file a Read deny rule covers
 * (calibrated: every row of red-team-code-read-cases.ts printed `.env`, in bash 5.2, Python 3.11,
 * Node 20, Perl 5.36, mawk). Then, paths only known when the line runs (deny-spellings.ts).
 *
 * So while such a rule exists: code that literally names a file a Read deny rule covers is
 * denied, naming the rule and the file; any other such code, a named file an Edit deny rule
 * covers, or an unknown path asks in every mode, bypassPermissions included, naming the rule —
 * the code may build the name at run time. Without those rules nothing changes here.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { unknownPathDoubts } from './deny-spellings';
import { describeRule, type EvaluationEnv, pathRules } from './evaluation';
import { PathPolicy } from './path-policy';
import { allUnits, type ShellUnit } from './shell-unit';
import type { PermissionRule } from './types';

/** Language runtimes and tools that evaluate code given to them (by their base name). */
const CODE_RUNNERS: ReadonlySet<string> = new Set([
  'python',
  'pypy',
  'node',
  'nodejs',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'perl',
  'ruby',
  'irb',
  'php',
  'lua',
  'luajit',
  'Rscript',
  'R',
  'julia',
  'tclsh',
  'wish',
  'expect',
  'guile',
  'racket',
  'sbcl',
  'clisp',
  'runghc',
  'runhaskell',
  'ghci',
  'scala',
  'groovy',
  'jshell',
  'java',
  'kotlin',
  'swift',
  'elixir',
  'iex',
  'erl',
  'escript',
  'osascript',
  'pwsh',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'busybox',
  // A multi-call binary like busybox; some builds carry a shell (toysh).
  'toybox',
  'gdb',
  'vim',
  'vi',
  'nvim',
  'ex',
  'emacs',
  'sqlite3',
]);

/** `python3`, `python3.11`, `perl5.36`, `ruby3.1`, `lua5.4`, `php8.2`, `pypy3`: the runtime's name. */
const VERSIONED = /^(python|pypy|perl|ruby|php|lua|node|tclsh|wish)[\d.]+$/;

/** Bound on the names taken from one unit's code: a longer script asks instead of being scanned. */
const MAX_NAMES = 256;

/** Why the unit runs code no table describes, or undefined when it runs none. */
export function codeRunReason(unit: ShellUnit): string | undefined {
  const hidden = unit.hiddenCode ?? unit.evaluation;
  if (hidden) return hidden;
  if (unit.kind !== 'command') return undefined;
  const name = unit.name;
  if (name && (CODE_RUNNERS.has(name) || VERSIONED.test(name)))
    return `${name} runs code Yoke does not read as code`;
  // `./build.sh`, `bin/run`: a program of the project, not one of the system's.
  if (unit.pathName && name === undefined && unit.argv[0] && !unit.argv[0].dynamic)
    return `${unit.argv[0].value} is a program Yoke does not read`;
  return undefined;
}

/**
 * The words the code the unit is handed may use as file names: each run of name characters in its
 * arguments and in a here-document or here-string body (`open(".env")` → `open`, `.env`).
 */
function namesInCode(unit: ShellUnit): string[] | undefined {
  const texts = unit.argv.slice(1).map((w) => w.value);
  for (const redirect of unit.redirects) {
    if (redirect.heredoc) texts.push(redirect.heredoc.body);
    else if (redirect.kind === 'herestring' && redirect.target) texts.push(redirect.target.value);
  }
  const names = new Set<string>();
  for (const text of texts)
    for (const match of text.matchAll(/[\w.~/@+-]+/g)) {
      names.add(match[0]);
      if (names.size > MAX_NAMES) return undefined;
    }
  return [...names];
}

export type CodeRunVerdict =
  | { denied: { rule: PermissionRule; message: string } }
  | { doubts: { rule: PermissionRule; reason: string }[] };

/** The path a name in code stands for, from the folder the code runs in. */
const pathOfName = (name: string, dir: string, home: string) =>
  name.startsWith('~/') ? join(home, name.slice(2)) : isAbsolute(name) ? name : resolve(dir, name);

/**
 * What the line's Read and Edit deny rules say of the code it runs: denied (its code names a file a
 * Read deny rule covers), or the doubts — a named file an Edit deny rule covers (the code may
 * write it), or code that may read or write anything — each with its rule.
 */
export function codeRunVerdict(
  units: readonly ShellUnit[],
  env: EvaluationEnv,
  readDenies: readonly PermissionRule[],
  editDenies: readonly PermissionRule[],
): CodeRunVerdict {
  const doubts: { rule: PermissionRule; reason: string }[] = [];
  const first = readDenies[0] ?? editDenies[0];
  if (!first) return { doubts };
  const policy = new PathPolicy(env, env.paths);
  const verb = first.toolName === 'Read' ? 'read' : 'write';
  for (const unit of allUnits(units)) {
    const why = codeRunReason(unit);
    if (!why) continue;
    const names = namesInCode(unit);
    const dirs = 'dirs' in unit.cwd ? unit.cwd.dirs : [env.roots.cwd];
    for (const name of names ?? []) {
      for (const dir of dirs) {
        const spelled = policy.spell(pathOfName(name, dir, env.roots.home));
        const read = policy.find(readDenies, spelled, 'deny');
        if (read)
          return {
            denied: {
              rule: read,
              message: `Denied by rule ${describeRule(read)}: \`${unit.text}\` runs code that names ${name}.`,
            },
          };
        const written = policy.find(editDenies, spelled, 'deny');
        if (written)
          doubts.push({
            rule: written,
            reason: `\`${unit.text}\` runs code that names ${name}, which it may write and ${describeRule(written)} denies`,
          });
      }
    }
    const unread = names ? '' : ', too long to look through,';
    doubts.push({
      rule: first,
      reason: `\`${unit.text}\`: ${why}${unread} and it may ${verb} a file ${describeRule(first)} denies`,
    });
  }
  return { doubts };
}

/**
 * The line's Read and Edit deny rules against what no path check settles: code it runs
 * (`codeRunVerdict`) and paths only known when it runs (`unknownPathDoubts`).
 */
export function pathDenyVerdict(units: readonly ShellUnit[], env: EvaluationEnv): CodeRunVerdict {
  const readDenies = pathRules(env.rules, 'Read', 'deny');
  const editDenies = pathRules(env.rules, 'Edit', 'deny');
  const code = codeRunVerdict(units, env, readDenies, editDenies);
  if ('denied' in code) return code;
  return { doubts: [...code.doubts, ...unknownPathDoubts(units, readDenies, editDenies)] };
}
