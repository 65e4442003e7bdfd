/**
 * Option tables of the commands that run another command (coreutils 9.1 and findutils 4.9
 * `--help`, GNU time 1.9 `--help`, bash 5.2 `help command|builtin|exec`). All stop at the first
 * operand: that is where the command they run begins (after `timeout`'s duration).
 */
import {
  changes,
  chdir,
  DATA,
  FLAG,
  OPTIONAL,
  READ,
  run,
  type TableSource,
  VALUE,
  write,
} from '../option-table';
import { GNU_COMMON } from './text';

const wrapper = (manual: string, options: TableSource['options'], numeric = false): TableSource => ({
  manual,
  options,
  operands: DATA,
  order: 'stop',
  numeric,
});

export const wrapperTableSources = (): Record<string, TableSource> => ({
  env: wrapper('GNU coreutils 9.1, env --help', {
    ...GNU_COMMON,
    'i ignore-environment': FLAG,
    '0 null': FLAG,
    'u unset': VALUE,
    'C chdir': chdir('runs the command in another folder'),
    'S split-string': run('splits a string into a command line'),
    'block-signal default-signal ignore-signal': OPTIONAL,
    'list-signal-handling': FLAG,
    'v debug': FLAG,
  }),
  nice: wrapper('GNU coreutils 9.1, nice --help', { ...GNU_COMMON, 'n adjustment': VALUE }, true),
  nohup: wrapper('GNU coreutils 9.1, nohup --help', { ...GNU_COMMON }),
  timeout: wrapper('GNU coreutils 9.1, timeout --help', {
    ...GNU_COMMON,
    'preserve-status foreground': FLAG,
    'k kill-after': VALUE,
    's signal': VALUE,
    'v verbose': FLAG,
  }),
  stdbuf: wrapper('GNU coreutils 9.1, stdbuf --help', {
    ...GNU_COMMON,
    'i input': VALUE,
    'o output': VALUE,
    'e error': VALUE,
  }),
  // The bash keyword takes only -p; /usr/bin/time (GNU time 1.9) also writes a report with -o.
  time: wrapper('bash 5.2 help time; GNU time 1.9, time --help', {
    'a append': FLAG,
    'f format': VALUE,
    'o output': write('writes its report to a file'),
    'p portability': FLAG,
    'q quiet': FLAG,
    'v verbose': FLAG,
    'h help': FLAG,
    'V version': FLAG,
  }),
  xargs: wrapper('GNU findutils 4.9, xargs --help', {
    ...GNU_COMMON,
    '0 null': FLAG,
    'a arg-file': READ,
    'd delimiter': VALUE,
    E: VALUE,
    'e eof': OPTIONAL,
    I: VALUE,
    'i replace': OPTIONAL,
    'L max-lines': VALUE,
    l: OPTIONAL,
    'n max-args': VALUE,
    'o open-tty': FLAG,
    'P max-procs': VALUE,
    'p interactive': FLAG,
    // VAR=slot number in the commands' environment: PATH or LD_PRELOAD there changes what they run.
    'process-slot-var': changes('sets an environment variable of the commands it runs'),
    'r no-run-if-empty': FLAG,
    's max-chars': VALUE,
    'show-limits': FLAG,
    't verbose': FLAG,
    'x exit': FLAG,
  }),
  command: wrapper('bash 5.2, help command', { p: FLAG, v: FLAG, V: FLAG }),
  builtin: wrapper('bash 5.2, help builtin', {}),
  exec: wrapper('bash 5.2, help exec', { c: FLAG, l: FLAG, a: VALUE }),
});
