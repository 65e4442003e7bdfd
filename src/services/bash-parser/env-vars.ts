/**
 * Environment variables and what they do to the programs that see them. Two tables, two jobs:
 * - `isSafeEnvAssignment`: the read-only proof's allowlist — variables proven harmless, each with
 *   a value rule where the value could name a file (glibc reads a locale name containing `/` as
 *   a path, a `TZ` or `TERM` value picks a file too). Anything else means "not read-only".
 * - `dangerousEnvReason`: the denylist that keeps broad allow rules (`Bash(git log:*)`, `Bash`)
 *   from covering a command whose environment changes which code runs — a library preloaded, a
 *   configuration file that names a pager or hook, a shell start-up file, interpreter options.
 * Calibrated with real programs in env-vars.calibration.test.ts.
 */
import type { ShellWord } from './types';

type ValueRule = (value: string) => boolean;

const anyValue: ValueRule = () => true;

/** `C`, `POSIX`, `en_US.UTF-8`, `de_DE@euro`, `C.UTF-8`: a name, never a path. */
const LOCALE_NAME =
  /^(?:[A-Za-z]{1,8}(?:_[A-Za-z0-9]{1,8})?(?:\.[A-Za-z0-9_-]{1,32})?(?:@[A-Za-z0-9_-]{1,32})?)?$/;
const isLocaleName: ValueRule = (value) => LOCALE_NAME.test(value);

/** `LANGUAGE` is a colon-separated list of locale names (gettext's search order). */
const isLocaleList: ValueRule = (value) => value.split(':').every(isLocaleName);

/**
 * A time zone: a POSIX rule (`UTC0`, `EST5EDT,M3.2.0,M11.1.0`, `<+03>-3`) or a name inside the
 * system zone database (`Europe/Berlin`, `:UTC`). No absolute path and no `..` component.
 */
const isTimeZone: ValueRule = (value) =>
  /^:?[A-Za-z0-9_+\-,.<>/]*$/.test(value) &&
  !value.replace(/^:/, '').startsWith('/') &&
  !value.split('/').some((part) => part === '..' || part === ':..');

const isCount: ValueRule = (value) => /^\d{1,5}$/.test(value);
/** A terminfo name (the file under the terminfo directories), never a path. */
const isTerminalName: ValueRule = (value) => /^[A-Za-z0-9._+-]{1,64}$/.test(value) && !value.startsWith('.');
const isBlockSize: ValueRule = (value) => /^'?[0-9]*[A-Za-z]{0,3}$/.test(value);

/**
 * Variables that only change formatting, language or colours, with the values that keep them so.
 * Setting anything else could change what a command runs or reads.
 */
export const SAFE_ENV_VARS: ReadonlyMap<string, ValueRule> = new Map([
  ['LANG', isLocaleName],
  ['LANGUAGE', isLocaleList],
  ['TZ', isTimeZone],
  ['NO_COLOR', anyValue],
  ['FORCE_COLOR', anyValue],
  ['CLICOLOR', anyValue],
  ['CLICOLOR_FORCE', anyValue],
  ['COLUMNS', isCount],
  ['LINES', isCount],
  ['TERM', isTerminalName],
  ['GREP_COLOR', anyValue],
  ['GREP_COLORS', anyValue],
  ['LS_COLORS', anyValue],
  ['TIME_STYLE', anyValue],
  ['QUOTING_STYLE', anyValue],
  ['BLOCK_SIZE', isBlockSize],
  ['BLOCKSIZE', isBlockSize],
  ['POSIXLY_CORRECT', anyValue],
]);

/** `LC_ALL`, `LC_CTYPE`, `LC_MESSAGES`, …: locale names like `LANG`. */
const LOCALE_CATEGORY = /^LC_[A-Z]+$/;

/** True for an env assignment that cannot change which program runs or what it does beyond output. */
export function isSafeEnvAssignment(name: string, value: ShellWord): boolean {
  if (value.dynamic) return false;
  const rule = SAFE_ENV_VARS.get(name) ?? (LOCALE_CATEGORY.test(name) ? isLocaleName : undefined);
  return rule?.(value.value) === true;
}

const LOADER = 'makes the dynamic loader or the C library load other code or data';
const SHELL = 'changes what the shell runs at start-up or which program a name finds';
const CONFIG = 'points the program at configuration that can name programs to run';
const HELPER = 'names a helper program (pager, editor, password prompt) the command may run';
const INTERPRETER = 'changes which code an interpreter, compiler or build tool loads';

/** Exact names (compared upper-cased), each with why it is dangerous. */
const DANGEROUS_NAMES: ReadonlyMap<string, string> = new Map([
  ...['GCONV_PATH', 'GETCONF_DIR', 'GLIBC_TUNABLES', 'LOCPATH', 'NLSPATH', 'HOSTALIASES'].map(
    (n) => [n, LOADER] as const,
  ),
  ...[
    'PATH',
    'BASH_ENV',
    'ENV',
    'IFS',
    'PS0',
    'PS1',
    'PS2',
    'PS4',
    'PROMPT_COMMAND',
    'SHELLOPTS',
    'BASHOPTS',
    'BASH_LOADABLES_PATH',
    'CDPATH',
    'FPATH',
    'SHELL',
    'ZDOTDIR',
    'INPUTRC',
  ].map((n) => [n, SHELL] as const),
  // bash expands the translation of a `$"…"` string as if it were written in double quotes: a
  // message catalog planted in TEXTDOMAINDIR can hold `$(cmd)` (noexpand_translation is off).
  ...['TEXTDOMAINDIR', 'TEXTDOMAIN'].map(
    (n) => [n, 'points bash at message catalogs whose translations it expands, `$(…)` included'] as const,
  ),
  ['TMPDIR', 'moves where programs create their temporary files'],
  ...[
    'HOME',
    'RIPGREP_CONFIG_PATH',
    'ACKRC',
    'ACK_OPTIONS',
    'GREP_OPTIONS',
    'TAR_OPTIONS',
    'CURL_HOME',
    'WGETRC',
    'OPENSSL_CONF',
    'OPENSSL_ENGINES',
    'OPENSSL_MODULES',
    'GNUPGHOME',
    'KUBECONFIG',
    'DOCKER_CONFIG',
    'AWS_CONFIG_FILE',
    'HGRCPATH',
    'MAKEFLAGS',
    'MFLAGS',
    'GNUMAKEFLAGS',
    'MAKEFILES',
    'EXINIT',
    'VIMINIT',
    'GVIMINIT',
    'MYVIMRC',
    'BAT_CONFIG_PATH',
    'MANOPT',
    'MANPATH',
    'MANROFFOPT',
    'MANROFFSEQ',
    'UV_INDEX',
    'UV_INDEX_URL',
    'UV_EXTRA_INDEX_URL',
    'UV_DEFAULT_INDEX',
    'UV_FIND_LINKS',
    'UV_CONFIG_FILE',
    'UV_PYTHON',
  ].map((n) => [n, CONFIG] as const),
  ...[
    'VISUAL',
    'BROWSER',
    'FCEDIT',
    'RSYNC_RSH',
    'RSYNC_CONNECT_PROG',
    'CVS_RSH',
    'SVN_SSH',
    'SSH_ASKPASS_REQUIRE',
  ].map((n) => [n, HELPER] as const),
  ...[
    'NODE_OPTIONS',
    'NODE_PATH',
    'NODE_REPL_EXTERNAL_MODULE',
    'JAVA_TOOL_OPTIONS',
    '_JAVA_OPTIONS',
    'JDK_JAVA_OPTIONS',
    'JAVA_OPTS',
    'JAVA_HOME',
    'CLASSPATH',
    'MAVEN_OPTS',
    'GRADLE_OPTS',
    'GRADLE_USER_HOME',
    'SBT_OPTS',
    'GOFLAGS',
    'GOENV',
    'GOTOOLCHAIN',
    'GOROOT',
    'GOPATH',
    'GOPROXY',
    'GOWORK',
    'GOCACHE',
    'GOMODCACHE',
    'GOINSECURE',
    'GONOSUMDB',
    'GONOSUMCHECK',
    'GOSUMDB',
    'CC',
    'CXX',
    'CPP',
    'LD',
    'AS',
    'AR',
    'CFLAGS',
    'CXXFLAGS',
    'CPPFLAGS',
    'LDFLAGS',
    'RUSTC',
    'RUSTC_WRAPPER',
    'RUSTC_WORKSPACE_WRAPPER',
    'RUSTFLAGS',
    'RUSTDOC',
    'RUSTDOCFLAGS',
    'PHPRC',
    'PHP_INI_SCAN_DIR',
    'ERL_AFLAGS',
    'ERL_FLAGS',
    'ERL_ZFLAGS',
    'ELIXIR_ERL_OPTIONS',
    'R_PROFILE',
    'R_PROFILE_USER',
    'TCLLIBPATH',
  ].map((n) => [n, INTERPRETER] as const),
]);

/** Prefixes (upper-cased): every variable of a family that loads code or configuration. */
const DANGEROUS_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['LD_', LOADER],
  ['DYLD_', LOADER],
  ['BASH_FUNC_', SHELL],
  // `BASH_ALIASES[r]=rm`, `BASH_CMDS[ls]=/bin/rm`: a name then runs another command (calibrated).
  ['BASH_ALIASES', SHELL],
  ['BASH_CMDS', SHELL],
  ['GIT_', 'changes the repository, configuration or helper programs git uses'],
  [
    'XDG_',
    'moves the configuration directories programs (git among them) read, which can name programs to run',
  ],
  ['LESS', HELPER],
  ['NPM_CONFIG_', CONFIG],
  ['YARN_', CONFIG],
  ['COREPACK_', CONFIG],
  ['PIP_', CONFIG],
  ['UV_', CONFIG],
  ['BUNDLE_', CONFIG],
  ['GEM_', INTERPRETER],
  ['PYTHON', INTERPRETER],
  ['PERL', INTERPRETER],
  ['RUBY', INTERPRETER],
  ['LUA_', INTERPRETER],
  ['CGO_', INTERPRETER],
  ['CARGO_', INTERPRETER],
  ['RUSTUP_', INTERPRETER],
  ['CMAKE_', INTERPRETER],
  ['PKG_CONFIG', INTERPRETER],
  ['DOTNET_', INTERPRETER],
  ['GTK_', LOADER],
  ['QT_PLUGIN', LOADER],
  ['GIO_', LOADER],
];

/** Suffixes (upper-cased): `PAGER`, `GIT_PAGER`, `SYSTEMD_PAGER`, `EDITOR`, `SUDO_ASKPASS`, `FZF_DEFAULT_COMMAND`. */
const DANGEROUS_SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ['PAGER', HELPER],
  ['EDITOR', HELPER],
  ['ASKPASS', HELPER],
  ['_COMMAND', HELPER],
];

/**
 * Members of a dangerous family that only label, time or format what the program does — common
 * in commands (`GIT_AUTHOR_DATE=… git commit`, `PYTHONUNBUFFERED=1 pytest`) and harmless.
 */
const HARMLESS_FAMILY_MEMBERS: ReadonlySet<string> = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
  'GIT_MERGE_AUTOEDIT',
  'GIT_LFS_SKIP_SMUDGE',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONHASHSEED',
  'PYTHONIOENCODING',
  'PYTHONUTF8',
  'PYTHONFAULTHANDLER',
  'PYTHONNOUSERSITE',
  'PYTHONSAFEPATH',
  'CARGO_TERM_COLOR',
  'CARGO_TERM_VERBOSE',
  'CARGO_INCREMENTAL',
]);

/** Variables whose value names a file to load: harmless as a name, dangerous as a path. */
function pathValueReason(name: string, value: ShellWord | undefined): string | undefined {
  if (!value) return undefined;
  const rule =
    name === 'LANG' || LOCALE_CATEGORY.test(name)
      ? isLocaleName
      : name === 'LANGUAGE'
        ? isLocaleList
        : name === 'TZ'
          ? isTimeZone
          : name === 'TERM'
            ? isTerminalName
            : undefined;
  if (!rule || (!value.dynamic && rule(value.value))) return undefined;
  return value.dynamic
    ? `a computed ${name} may name a file the C library loads (message catalogs hold format strings)`
    : `${name}=${value.value} names a file the C library loads (message catalogs hold format strings)`;
}

/**
 * Why setting `name` (to `value`, when known) in a command's environment can change which code
 * runs, or undefined. Names compare upper-cased (`npm_config_*` counts as `NPM_CONFIG_*`).
 */
export function dangerousEnvReason(name: string, value?: ShellWord): string | undefined {
  const upper = name.toUpperCase();
  if (HARMLESS_FAMILY_MEMBERS.has(upper)) return undefined;
  const reason =
    DANGEROUS_NAMES.get(upper) ??
    DANGEROUS_PREFIXES.find(([prefix]) => upper.startsWith(prefix))?.[1] ??
    DANGEROUS_SUFFIXES.find(([suffix]) => upper.endsWith(suffix))?.[1];
  if (reason) return `${name}= ${reason}`;
  return pathValueReason(name, value);
}

export function isDangerousEnvVar(name: string): boolean {
  return dangerousEnvReason(name) !== undefined;
}
