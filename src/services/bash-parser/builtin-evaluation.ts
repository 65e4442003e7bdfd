/**
 * Builtins that evaluate their arguments as code, arithmetic or variable names — judged on the
 * argv, so a builtin reached through `command`/`builtin` is judged the same way. Calibrated
 * against bash 5.2 (evaluation-sites.calibration.test.ts): `let`, `declare -i`/`-n`, `printf -v`,
 * `read`, `unset`, `wait -p` and `[ -v ]` evaluate subscripts in names; `mapfile -C` and `trap`
 * run code strings; `enable -f` loads a shared object; `hash -p` rebinds a command name.
 * `export`/`readonly` names, `mapfile` names, `[ "$x" -eq 1 ]`, `shift`/`exit`/`return` do not.
 */
import { isLiteralArithmetic } from './arithmetic';
import {
  arrayKeysReason,
  assignmentNameReason,
  nameOperandEvaluates,
  shown,
  testBuiltinReason,
} from './evaluation-sites';
import type { ShellWord } from './types';

const RUNS = 'which can run commands';

/** Options of `read` that take a value (glued or as the next word). */
const READ_OPTIONS_WITH_VALUE = 'adinNptu';
const MAPFILE_OPTIONS_WITH_VALUE = 'dnOsuCc';

type Parsed = { options: Map<string, ShellWord | undefined>; operands: ShellWord[]; unknown: boolean };

/**
 * Splits builtin arguments into single-letter options (with values for `withValue`) and operands.
 * A computed word where options may still come could be any option or operand: parsing stops
 * there and the result is `unknown` (the word and the rest count as operands).
 */
function parseOptions(args: readonly ShellWord[], withValue: string): Parsed {
  const options = new Map<string, ShellWord | undefined>();
  let unknown = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (word.dynamic) {
      unknown = true;
      break;
    }
    const value = word.value;
    if (value === '--') {
      i++;
      break;
    }
    if (!/^-./.test(value)) break;
    for (let j = 1; j < value.length; j++) {
      const letter = value[j] as string;
      if (!withValue.includes(letter)) {
        options.set(letter, undefined);
        continue;
      }
      const glued = value.slice(j + 1);
      options.set(letter, glued ? { ...word, text: glued, value: glued } : args[++i]);
      break;
    }
  }
  return { options, operands: args.slice(i), unknown };
}

function nameReason(command: string, word: ShellWord | undefined): string | undefined {
  if (!nameOperandEvaluates(word)) return undefined;
  return `\`${command} ${shown(word?.text ?? '')}\` evaluates a computed variable name, ${RUNS}`;
}

function letReason(args: readonly ShellWord[]): string | undefined {
  const bad = args.find((w) => w.dynamic || !isLiteralArithmetic(w.value));
  return bad ? `\`let ${shown(bad.text)}\` evaluates variables as arithmetic, ${RUNS}` : undefined;
}

function printfReason(args: readonly ShellWord[]): string | undefined {
  const first = args[0];
  if (!first || first.dynamic || !first.value.startsWith('-v')) return undefined;
  const name =
    first.value === '-v' ? args[1] : { ...first, text: first.value.slice(2), value: first.value.slice(2) };
  return nameReason('printf -v', name);
}

function readReason(args: readonly ShellWord[]): string | undefined {
  const { operands } = parseOptions(args, READ_OPTIONS_WITH_VALUE);
  for (const name of operands) {
    const reason = nameReason('read', name);
    if (reason) return reason;
  }
  return undefined;
}

function mapfileReason(command: string, args: readonly ShellWord[]): string | undefined {
  const { options, unknown } = parseOptions(args, MAPFILE_OPTIONS_WITH_VALUE);
  if (options.has('C')) return `\`${command} -C\` runs a callback as code, ${RUNS}`;
  if (unknown) return `\`${command}\` with a computed option may run a callback, ${RUNS}`;
  return undefined;
}

function unsetReason(args: readonly ShellWord[]): string | undefined {
  const { options, operands } = parseOptions(args, '');
  // Function names are never evaluated (calibrated: `unset -f "$x"`).
  if (options.has('f')) return undefined;
  for (const name of operands) {
    const reason = nameReason('unset', name);
    if (reason) return reason;
  }
  return undefined;
}

function trapReason(args: readonly ShellWord[]): string | undefined {
  const { options, operands } = parseOptions(args, '');
  if (options.has('l') || options.has('p') || operands.length < 2) return undefined;
  const action = operands[0] as ShellWord;
  if (!action.dynamic && (action.value === '' || action.value === '-')) return undefined;
  return `\`trap\` runs \`${shown(action.text)}\` as code when a signal arrives or the shell exits`;
}

/**
 * A declaration argument whose name is written out (`a=1`, `a[0]=$x`, `a+=x`): only the value is
 * computed. Any other computed word (`"$kv"`) may expand to a name such as `a[$(cmd)]=1`.
 */
export function hasWrittenName(word: ShellWord): boolean {
  return !word.dynamic || /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.test(word.text);
}

/**
 * `declare`/`typeset`/`local`/`export`/`readonly`. Calibrated: `declare`, `typeset` and `local`
 * evaluate subscripts in a name (also one computed by an expansion: `declare "$y"`), `-i` makes
 * later assignments arithmetic and `-n` makes a name a reference resolved on use; all five
 * evaluate the keys of an indexed array value `([k]=v)`.
 */
function declarationReason(keyword: string, args: readonly ShellWord[]): string | undefined {
  const assigns = keyword === 'declare' || keyword === 'typeset' || keyword === 'local';
  let associative = false;
  for (const word of args) {
    if (!word.dynamic && /^[-+][A-Za-z]+$/.test(word.value)) {
      if (word.value.includes('A')) associative = true;
      if (assigns && word.value.includes('i'))
        return `\`${keyword} ${word.value}\` makes assignments to its names arithmetic, ${RUNS}`;
      if (assigns && word.value.includes('n'))
        return `\`${keyword} ${word.value}\` makes a name refer to another variable, whose name is evaluated on use`;
    }
  }
  for (const word of args) {
    if (!word.dynamic && /^[-+]/.test(word.value)) continue;
    if (word.dynamic && !hasWrittenName(word) && assigns)
      return `\`${keyword} ${shown(word.text)}\` assigns through a computed name, ${RUNS}`;
    const eq = word.value.indexOf('=');
    const name = eq < 0 ? word.value : word.value.slice(0, eq).replace(/\+$/, '');
    if (assigns) {
      const reason = assignmentNameReason(name);
      if (reason) return reason;
    }
    if (eq >= 0 && !associative) {
      const reason = arrayKeysReason(word.value.slice(eq + 1));
      if (reason) return reason;
    }
  }
  return undefined;
}

/** `[`/`test`: the words between the command and a closing `]`. */
function testReason(command: string, args: readonly ShellWord[]): string | undefined {
  const operands = command === '[' && args.at(-1)?.value === ']' ? args.slice(0, -1) : args;
  return testBuiltinReason(operands, [command, ...operands.map((w) => w.text)].join(' '));
}

/**
 * Why running `argv` as a bash builtin evaluates an argument as code, or undefined. Only bare
 * names are builtins (`/usr/bin/printf` is a program without `-v`).
 */
export function builtinReason(argv: readonly ShellWord[]): string | undefined {
  const first = argv[0];
  if (!first || first.dynamic || first.value.includes('/')) return undefined;
  const command = first.value;
  const args = argv.slice(1);
  switch (command) {
    case 'let':
      return letReason(args);
    case 'printf':
      return printfReason(args);
    case 'read':
      return readReason(args);
    case 'mapfile':
    case 'readarray':
      return mapfileReason(command, args);
    case 'unset':
      return unsetReason(args);
    case 'wait': {
      const { options } = parseOptions(args, 'p');
      return options.has('p') ? nameReason('wait -p', options.get('p')) : undefined;
    }
    case 'trap':
      return trapReason(args);
    case 'enable':
      return parseOptions(args, 'f').options.has('f')
        ? '`enable -f` loads a shared library into the shell, which runs its code'
        : undefined;
    case 'hash':
      return parseOptions(args, 'p').options.has('p')
        ? '`hash -p` makes a command name run another program'
        : undefined;
    case 'declare':
    case 'typeset':
    case 'local':
    case 'export':
    case 'readonly':
      return declarationReason(command, args);
    case 'test':
    case '[':
      return testReason(command, args);
    default:
      return undefined;
  }
}

/**
 * Code strings a builtin runs later (`trap ACTION SIG`, `mapfile -C CALLBACK`, an alias's body, the
 * program `hash -p` binds a name to), when written
 * literally: deny rules must see the commands inside them. A computed one cannot be read, and
 * `builtinReason` refuses it already.
 */
export function builtinCodeStrings(argv: readonly ShellWord[]): string[] {
  const first = argv[0];
  if (!first || first.dynamic || first.value.includes('/')) return [];
  const args = argv.slice(1);
  if (first.value === 'trap') {
    const { options, operands } = parseOptions(args, '');
    const action = operands[0];
    if (options.has('l') || options.has('p') || operands.length < 2 || !action || action.dynamic) return [];
    return [action.value];
  }
  if (first.value === 'mapfile' || first.value === 'readarray') {
    const callback = parseOptions(args, MAPFILE_OPTIONS_WITH_VALUE).options.get('C');
    return callback && !callback.dynamic ? [callback.value] : [];
  }
  // `alias r=rm` runs `rm` wherever a later line says `r` (once `shopt -s expand_aliases`);
  // `hash -p /bin/rm ls` runs `rm` wherever it says `ls`.
  if (first.value === 'alias')
    return args.flatMap((w) =>
      !w.dynamic && w.value.includes('=') ? [w.value.slice(w.value.indexOf('=') + 1)] : [],
    );
  if (first.value === 'hash') {
    const program = parseOptions(args, 'p').options.get('p');
    return program && !program.dynamic ? [program.value] : [];
  }
  return [];
}

/** A variable a builtin assigns; `computed` names are only known at run time (`name` is the text). */
export type AssignedName = { name: string; computed: boolean };

/**
 * The shell variables a builtin assigns (`read NAME`, `printf -v NAME`, `mapfile NAME`,
 * `getopts OPTS NAME`, `wait -p NAME`): if one is exported (`PAGER`, `LD_PRELOAD`), the programs
 * started after it see the new value.
 */
export function builtinAssignedNames(argv: readonly ShellWord[]): AssignedName[] {
  const first = argv[0];
  if (!first || first.dynamic || first.value.includes('/')) return [];
  const args = argv.slice(1);
  const names = (words: readonly (ShellWord | undefined)[]): AssignedName[] =>
    words
      .filter((w): w is ShellWord => w !== undefined)
      .map((w) => (w.dynamic ? { name: w.text, computed: true } : { name: w.value, computed: false }));
  switch (first.value) {
    case 'read': {
      const { options, operands } = parseOptions(args, READ_OPTIONS_WITH_VALUE);
      return names([...operands, options.get('a')]);
    }
    case 'printf': {
      const head = args[0];
      if (!head || head.dynamic || !head.value.startsWith('-v')) return [];
      return head.value === '-v' ? names([args[1]]) : [{ name: head.value.slice(2), computed: false }];
    }
    case 'mapfile':
    case 'readarray': {
      const { operands } = parseOptions(args, MAPFILE_OPTIONS_WITH_VALUE);
      return operands.length > 0 ? names(operands) : [{ name: 'MAPFILE', computed: false }];
    }
    case 'getopts':
      return names([args[1]]);
    case 'wait':
      return names([parseOptions(args, 'p').options.get('p')]);
    default:
      return [];
  }
}
