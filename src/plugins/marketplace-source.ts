/**
 * Where a marketplace's catalogue comes from, as `extraKnownMarketplaces` writes it
 * (`{"source": {"source": "github", "repo": "owner/repo"}}`) or as `yoke plugin marketplace add`
 * is given it (`owner/repo`, a git URL, a folder). GitHub sources are cloned from
 * https://github.com/… by the system git; remote JSON URLs and package registries are not fetched.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { isJsonObject } from '../lib/json-object';
import { gitUrlProblem } from './git-clone';

export type MarketplaceSource =
  | { source: 'github'; repo: string; ref?: string; path?: string }
  | { source: 'git'; url: string; ref?: string; path?: string }
  /** A folder holding `.claude-plugin/marketplace.json`, used in place. */
  | { source: 'directory'; path: string }
  /** A `marketplace.json` file, used in place. */
  | { source: 'file'; path: string };

const GITHUB_REPO = /^[\w.-]+\/[\w.-]+$/;

const optional = (raw: Record<string, unknown>, key: string): Record<string, string> | string => {
  const value = raw[key];
  if (value === undefined) return {};
  return typeof value === 'string' && value !== '' ? { [key]: value } : `"${key}" must be a non-empty string`;
};

/** A settings `source` object checked into a `MarketplaceSource`, or why it cannot be used. */
export function parseMarketplaceSource(raw: unknown): MarketplaceSource | string {
  if (!isJsonObject(raw) || typeof raw.source !== 'string') {
    return '"source" must be an object such as {"source": "github", "repo": "owner/repo"}';
  }
  const pins = [optional(raw, 'ref'), optional(raw, 'path')];
  const bad = pins.find((pin) => typeof pin === 'string');
  if (typeof bad === 'string') return bad;
  const pin = Object.assign({}, ...pins) as { ref?: string; path?: string };
  switch (raw.source) {
    case 'github':
      if (typeof raw.repo !== 'string' || !GITHUB_REPO.test(raw.repo)) return '"repo" must be "owner/repo"';
      return { source: 'github', repo: raw.repo, ...pin };
    case 'git': {
      if (typeof raw.url !== 'string') return '"url" must be a git URL';
      const problem = gitUrlProblem(raw.url);
      return problem ?? { source: 'git', url: raw.url, ...pin };
    }
    case 'directory':
    case 'file':
      if (typeof raw.path !== 'string' || raw.path === '') return '"path" must be a non-empty string';
      return { source: raw.source, path: raw.path };
    case 'url':
      return 'remote marketplace.json URLs are not fetched by Yoke; use a git repository ({"source": "git", "url": …}) or a folder';
    default:
      return `source "${raw.source}" is not supported by Yoke (github, git, directory or file)`;
  }
}

/**
 * What `yoke plugin marketplace add <arg>` means: an existing folder or `.json` file, a git URL,
 * or GitHub's `owner/repo`. A relative folder is resolved against `cwd` and recorded absolute.
 */
export function sourceFromArgument(arg: string, cwd: string): MarketplaceSource | string {
  const local = resolve(cwd, arg);
  const looksLocal = isAbsolute(arg) || arg.startsWith('./') || arg.startsWith('../') || arg === '.';
  if (existsSync(local) && (looksLocal || !GITHUB_REPO.test(arg))) {
    if (!statSync(local).isDirectory()) return { source: 'file', path: local };
    // A bare repository (`market.git`, no working tree) is cloned like any git source.
    if (local.endsWith('.git') && existsSync(join(local, 'HEAD'))) return { source: 'git', url: local };
    return { source: 'directory', path: local };
  }
  if (looksLocal) return `${local} does not exist`;
  if (/^https?:\/\/.*\.json$/i.test(arg)) {
    return 'remote marketplace.json URLs are not fetched by Yoke; give the git repository that holds it';
  }
  if (GITHUB_REPO.test(arg)) return { source: 'github', repo: arg };
  const problem = gitUrlProblem(arg);
  return problem ?? { source: 'git', url: arg };
}

/** One line for listings: where the marketplace comes from. */
export function describeMarketplaceSource(source: MarketplaceSource): string {
  const ref = 'ref' in source && source.ref ? `#${source.ref}` : '';
  switch (source.source) {
    case 'github':
      return `github ${source.repo}${ref}`;
    case 'git':
      return `git ${source.url}${ref}`;
    default:
      return `${source.source} ${source.path}`;
  }
}
