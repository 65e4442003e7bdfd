/**
 * `@path` completion: the project's files as ripgrep lists them (so .gitignore'd files and .git
 * are left out), read once per session in the background and matched by prefix first, then by
 * substring. Files a Read deny rule covers are not offered.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import type { Env } from '../../config/paths';
import type { PermissionRule } from '../../lib/permission-vocabulary';
import { type PathRoots, pathMatchesRule } from '../../permissions/path-rules';
import { resolveRipgrep } from '../../tools/builtin/shared/ripgrep';

/** More files than this are not listed: completion must stay instant in a huge tree. */
const MAX_FILES = 50_000;

export type PathSuggestion = { value: string; label: string };

export class PathCompleter {
  private files: Promise<string[]> | undefined;

  constructor(
    private readonly cwd: string,
    private readonly env: Env,
    /** True when a Read deny rule covers the absolute path. */
    private readonly denied: (absolutePath: string) => boolean = () => false,
  ) {}

  private list(): Promise<string[]> {
    this.files ??= new Promise((done) => {
      let rg: string;
      try {
        rg = resolveRipgrep(this.env);
      } catch {
        done([]);
        return;
      }
      execFile(
        rg,
        ['--files', '--hidden', '--glob', '!.git', '--no-config'],
        { cwd: this.cwd, maxBuffer: 64 * 1024 * 1024, env: this.env as NodeJS.ProcessEnv },
        (_error, stdout) => {
          const files = String(stdout ?? '')
            .split('\n')
            .filter((f) => f !== '')
            .slice(0, MAX_FILES)
            .sort();
          done(files);
        },
      );
    });
    return this.files;
  }

  /** Suggestions for a token that starts with `@`. */
  async complete(token: string, limit = 6): Promise<PathSuggestion[]> {
    const query = token.replace(/^@/, '');
    const files = await this.list();
    const starts = files.filter((f) => f.startsWith(query));
    const contains = query ? files.filter((f) => !f.startsWith(query) && f.includes(query)) : [];
    return [...starts, ...contains]
      .filter((f) => !this.denied(resolve(this.cwd, f)))
      .slice(0, limit)
      .map((f) => ({ value: `@${f} `, label: `@${f}` }));
  }
}

/** Whether a Read deny rule in force covers a path (for which files completion may offer). */
export function readDeniedBy(rules: readonly PermissionRule[], roots: PathRoots): (path: string) => boolean {
  const denies = rules.filter(
    (rule) => rule.behavior === 'deny' && (rule.toolName === 'Read' || rule.toolName === '*'),
  );
  return (path) =>
    denies.some(
      (rule) => rule.ruleContent === undefined || pathMatchesRule(path, rule.ruleContent, rule.source, roots),
    );
}
