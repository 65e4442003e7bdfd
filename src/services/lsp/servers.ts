/**
 * The language servers Yoke knows: which files each serves, which files mark a project root for
 * it, and which binary runs it. A server starts only when both a root marker and its binary are
 * found (seed 002): one without the other is reported by `status`, never guessed around.
 */
import { extname } from 'node:path';

export type ServerId = 'typescript' | 'pyright' | 'gopls' | 'rust-analyzer' | 'clangd';

/**
 * How a server's diagnostics for one document version are obtained:
 * - `pull`: `textDocument/diagnostic` when the server offers it, else the first
 *   `publishDiagnostics` for the file after the sync (document-diagnostics.ts);
 * - `tsserver`: typescript-language-server publishes nothing when a file stays clean, so the
 *   check is asked of tsserver itself (`typescript.tsserverRequest`), which answers for the
 *   content just synced.
 */
export type DiagnosticsMode = 'pull' | 'tsserver';

export type ServerSpec = {
  id: ServerId;
  /** File extensions (with the dot) the server handles, mapped to their LSP language id. */
  languages: Readonly<Record<string, string>>;
  /** Files whose presence in a folder makes it the server's root. */
  markers: readonly string[];
  /** The executable, looked up in the project's tool folders (trusted only) and on PATH. */
  binary: string;
  args: readonly string[];
  /** Where a project keeps its own copy of the binary, relative to the root (trusted folders only). */
  projectBinDirs: readonly string[];
  diagnostics: DiagnosticsMode;
  /** Settings answered to `workspace/configuration`, by section. */
  configuration?: (root: string, python?: string) => Record<string, unknown>;
};

export const SERVER_SPECS: readonly ServerSpec[] = [
  {
    id: 'typescript',
    languages: {
      '.ts': 'typescript',
      '.tsx': 'typescriptreact',
      '.mts': 'typescript',
      '.cts': 'typescript',
      '.js': 'javascript',
      '.jsx': 'javascriptreact',
      '.mjs': 'javascript',
      '.cjs': 'javascript',
    },
    markers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    binary: 'typescript-language-server',
    args: ['--stdio'],
    projectBinDirs: ['node_modules/.bin'],
    diagnostics: 'tsserver',
  },
  {
    id: 'pyright',
    languages: { '.py': 'python', '.pyi': 'python' },
    markers: ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'pyrightconfig.json'],
    binary: 'pyright-langserver',
    args: ['--stdio'],
    projectBinDirs: ['.venv/bin', 'venv/bin', 'node_modules/.bin'],
    diagnostics: 'pull',
    configuration: (_root, python) => ({
      python: python ? { pythonPath: python } : {},
      'python.analysis': { diagnosticMode: 'openFilesOnly', autoSearchPaths: true },
    }),
  },
  {
    id: 'gopls',
    languages: { '.go': 'go' },
    markers: ['go.mod'],
    binary: 'gopls',
    args: [],
    projectBinDirs: [],
    diagnostics: 'pull',
  },
  {
    id: 'rust-analyzer',
    languages: { '.rs': 'rust' },
    markers: ['Cargo.toml'],
    binary: 'rust-analyzer',
    args: [],
    projectBinDirs: [],
    diagnostics: 'pull',
  },
  {
    id: 'clangd',
    languages: {
      '.c': 'c',
      '.h': 'c',
      '.cc': 'cpp',
      '.cpp': 'cpp',
      '.cxx': 'cpp',
      '.hpp': 'cpp',
      '.hh': 'cpp',
    },
    markers: ['compile_commands.json', 'CMakeLists.txt'],
    binary: 'clangd',
    args: [],
    projectBinDirs: [],
    diagnostics: 'pull',
  },
];

/** The server for a file, by its extension; undefined when no known server handles it. */
export function specForFile(path: string): ServerSpec | undefined {
  const ext = extname(path).toLowerCase();
  return SERVER_SPECS.find((spec) => ext in spec.languages);
}

export function languageIdOf(spec: ServerSpec, path: string): string {
  return spec.languages[extname(path).toLowerCase()] ?? spec.id;
}
