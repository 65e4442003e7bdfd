/**
 * The grammars the structural tools parse with. `@ast-grep/napi` (a native module, loaded on the
 * first structural call so a session that never searches by shape pays nothing at start-up) has
 * TypeScript, TSX, JavaScript, HTML and CSS built in; each `@ast-grep/lang-*` package brings one
 * more grammar as a prebuilt shared library (no download, no compiler). Those packages are
 * optional dependencies: an install without one simply lacks that language, and says so.
 * Not taken: lang-haskell and lang-toml point at a parser.so only their install script makes
 * (installs here run no scripts), and lang-markdown prints to stdout when it loads, which would
 * corrupt stream-json output.
 */
import type { NapiConfig, SgRoot } from '@ast-grep/napi';
import { loadOptionalModule } from '../shared/optional-module';

type Napi = typeof import('@ast-grep/napi');

type LangPackage = {
  libraryPath: string;
  extensions: string[];
  languageSymbol?: string;
  expandoChar?: string;
};

/** Built into napi: its own language ids, and the extensions ast-grep gives them. */
const BUILTIN: Readonly<Record<string, readonly string[]>> = {
  TypeScript: ['ts', 'mts', 'cts'],
  Tsx: ['tsx'],
  JavaScript: ['js', 'mjs', 'cjs', 'jsx'],
  Html: ['html', 'htm'],
  Css: ['css'],
};

/** The language packages Yoke depends on (package.json optionalDependencies), by grammar id. */
export const PACKAGED_LANGUAGES = [
  'bash',
  'c',
  'cpp',
  'csharp',
  'dart',
  'elixir',
  'go',
  'java',
  'json',
  'kotlin',
  'lua',
  'php',
  'python',
  'ruby',
  'rust',
  'scala',
  'sql',
  'swift',
  'yaml',
] as const;

/** Names a model may write for a grammar, lowercased, to the grammar id. */
const ALIASES: Readonly<Record<string, string>> = {
  typescript: 'TypeScript',
  ts: 'TypeScript',
  tsx: 'Tsx',
  javascript: 'JavaScript',
  js: 'JavaScript',
  jsx: 'JavaScript',
  html: 'Html',
  css: 'Css',
  'c++': 'cpp',
  'c#': 'csharp',
  cs: 'csharp',
  py: 'python',
  rs: 'rust',
  golang: 'go',
  sh: 'bash',
  shell: 'bash',
  kt: 'kotlin',
  rb: 'ruby',
  yml: 'yaml',
};

/** The grammar id for a name the model gave (`python`, `TS`, `c++`), if it names one. */
export function canonicalLanguage(name: string): string {
  const lower = name.trim().toLowerCase();
  return ALIASES[lower] ?? lower;
}

export type Language = {
  id: string;
  extensions: readonly string[];
  /** What stands for `$` when a pattern is parsed, where `$` cannot begin an identifier. */
  expando: string;
};

export type AstEngine = {
  napi: Napi;
  languages: ReadonlyMap<string, Language>;
  /** Language packages that could not be loaded, with why. */
  missing: readonly string[];
  byExtension(path: string): Language | undefined;
  parse(language: Language, source: string): SgRoot;
  findAll(root: SgRoot, rule: NapiConfig): ReturnType<ReturnType<SgRoot['root']>['findAll']>;
};

async function loadEngine(): Promise<AstEngine> {
  const napi = await loadOptionalModule<Napi>('@ast-grep/napi');
  if (!napi)
    throw new Error(
      'The structural code tools need @ast-grep/napi and its package for this platform; reinstall Yoke without --omit=optional.',
    );
  const languages = new Map<string, Language>();
  for (const [id, extensions] of Object.entries(BUILTIN)) languages.set(id, { id, extensions, expando: '$' });
  const registrations: Record<string, LangPackage> = {};
  const missing: string[] = [];
  for (const id of PACKAGED_LANGUAGES) {
    const loaded = await loadOptionalModule<LangPackage | { default: LangPackage }>(`@ast-grep/lang-${id}`);
    const pkg = loaded && 'default' in loaded ? loaded.default : loaded;
    let libraryPath: string | undefined;
    try {
      libraryPath = pkg?.libraryPath;
    } catch (error) {
      // The package's getter throws when it has no prebuilt parser for this platform.
      missing.push(`${id} (${(error as Error).message})`);
      continue;
    }
    if (!pkg || !libraryPath) {
      missing.push(`${id} (@ast-grep/lang-${id} is not installed)`);
      continue;
    }
    registrations[id] = {
      libraryPath,
      extensions: pkg.extensions,
      languageSymbol: pkg.languageSymbol,
      expandoChar: pkg.expandoChar,
    };
    languages.set(id, { id, extensions: pkg.extensions, expando: pkg.expandoChar ?? '$' });
  }
  napi.registerDynamicLanguage(registrations);
  const extensionIndex = new Map<string, Language>();
  for (const language of languages.values())
    for (const ext of language.extensions) extensionIndex.set(ext.toLowerCase(), language);
  return {
    napi,
    languages,
    missing,
    byExtension(path) {
      const dot = path.lastIndexOf('.');
      if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
      return extensionIndex.get(path.slice(dot + 1).toLowerCase());
    },
    parse: (language, source) => napi.parse(language.id as never, source),
    findAll: (root, rule) => root.root().findAll(rule as never),
  };
}

// Process-wide on purpose: napi's registerDynamicLanguage may run once per process, and the
// grammars are facts of the installation, not of a session.
let engine: Promise<AstEngine> | undefined;

export function astEngine(): Promise<AstEngine> {
  engine ??= loadEngine();
  return engine;
}

/** The grammar ids, for the tool descriptions (no loading: the packages Yoke installs). */
export const LANGUAGE_IDS: readonly string[] = [...Object.keys(BUILTIN), ...PACKAGED_LANGUAGES];
