/** Marketplace catalogues and sources as Claude Code users write them. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMarketplaceManifest } from './marketplace-manifest';
import { parseMarketplaceSource, sourceFromArgument } from './marketplace-source';
import { writeTree } from './test-support';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-market-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const SHA = 'a'.repeat(40);

describe('readMarketplaceManifest', () => {
  it('reads every source form; a bad entry is one line and the others stay', async () => {
    await writeTree(root, {
      '.claude-plugin/marketplace.json': {
        name: 'acme',
        owner: { name: 'Acme' },
        metadata: { pluginRoot: './plugins' },
        plugins: [
          { name: 'local', source: './tools/local', description: 'Local one', version: '1.0.0' },
          { name: 'short', source: 'short' },
          { name: 'gh', source: { source: 'github', repo: 'acme/gh-plugin', ref: 'v2', sha: SHA } },
          { name: 'url', source: { source: 'url', url: 'https://gitlab.example/acme/p.git' } },
          {
            name: 'sub',
            source: { source: 'git-subdir', url: 'https://example.com/mono.git', path: 'plugins/sub' },
          },
          { name: 'Bad Name', source: './x' },
          { name: 'pinned', source: { source: 'github', repo: 'acme/p', sha: 'abc' } },
          { name: 'local', source: './again' },
        ],
      },
    });
    const read = await readMarketplaceManifest(root);
    const file = join(root, '.claude-plugin/marketplace.json');
    expect(read).toEqual({
      ok: true,
      manifest: {
        name: 'acme',
        plugins: [
          {
            name: 'local',
            source: { kind: 'relative', path: './tools/local' },
            description: 'Local one',
            version: '1.0.0',
          },
          { name: 'short', source: { kind: 'relative', path: 'plugins/short' } },
          {
            name: 'gh',
            source: { kind: 'git', url: 'https://github.com/acme/gh-plugin.git', ref: 'v2', sha: SHA },
          },
          { name: 'url', source: { kind: 'git', url: 'https://gitlab.example/acme/p.git' } },
          { name: 'sub', source: { kind: 'git', url: 'https://example.com/mono.git', path: 'plugins/sub' } },
        ],
      },
      problems: [
        `${file}: "plugins[5].name": must be 1–64 letters, digits, ".", "_" or "-"; that plugin is not offered`,
        `${file}: "plugins[6].source.sha": must be a full 40-character commit id; that plugin is not offered`,
        `${file}: "plugins[7]": a second plugin named "local"; the first is kept`,
      ],
    });
  });

  it('a catalogue without a name or plugins list cannot be used', async () => {
    await writeTree(root, { '.claude-plugin/marketplace.json': { owner: { name: 'x' } } });
    const read = await readMarketplaceManifest(root);
    expect(read).toEqual({
      ok: false,
      problem: `${join(root, '.claude-plugin/marketplace.json')}: "name": Invalid input: expected string, received undefined (and 1 more problem)`,
    });
  });
});

describe('marketplace sources', () => {
  it('takes settings sources as Claude Code writes them', () => {
    expect(parseMarketplaceSource({ source: 'github', repo: 'acme/plugins' })).toEqual({
      source: 'github',
      repo: 'acme/plugins',
    });
    expect(parseMarketplaceSource({ source: 'git', url: 'https://example.com/m.git', ref: 'main' })).toEqual({
      source: 'git',
      url: 'https://example.com/m.git',
      ref: 'main',
    });
    expect(parseMarketplaceSource({ source: 'directory', path: '/srv/market' })).toEqual({
      source: 'directory',
      path: '/srv/market',
    });
    expect(parseMarketplaceSource({ source: 'git', url: 'ext::sh -c id' })).toMatch(
      /^"ext::" URLs run a git remote helper/,
    );
    expect(parseMarketplaceSource({ source: 'npm', package: 'x' })).toBe(
      'source "npm" is not supported by Yoke (github, git, directory or file)',
    );
    expect(parseMarketplaceSource('acme/plugins')).toBe(
      '"source" must be an object such as {"source": "github", "repo": "owner/repo"}',
    );
  });

  it('reads a command-line argument as a folder, a git URL or GitHub owner/repo', async () => {
    await writeTree(root, { 'market/.claude-plugin/marketplace.json': '{}' });
    expect(sourceFromArgument('market', root)).toEqual({ source: 'directory', path: join(root, 'market') });
    expect(sourceFromArgument('acme/plugins', root)).toEqual({ source: 'github', repo: 'acme/plugins' });
    expect(sourceFromArgument('git@github.com:acme/plugins.git', root)).toEqual({
      source: 'git',
      url: 'git@github.com:acme/plugins.git',
    });
  });
});
