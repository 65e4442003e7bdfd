/**
 * `--help` against the data it must cover: every flag the README documents, every environment
 * variable Yoke's code reads, and a mark on every flag that is not implemented.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './program';
import { NO_EFFECT_FLAGS, UNAVAILABLE_FLAGS } from './unavailable';

const ROOT = join(import.meta.dirname, '../..');

function helpText(): string {
  let text = '';
  const program = buildProgram({ onRoot: () => {}, onMockServer: async () => {} });
  program.configureOutput({ writeOut: (s) => (text += s) });
  program.outputHelp();
  return text;
}

/** The help line of a flag (the line that starts with its spellings). */
function lineOf(help: string, flag: string): string | undefined {
  return help.split('\n').find((line) => new RegExp(`^\\s+(-\\w, )?${flag}[ ,]`).test(line));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Variables of the platform and of the tools Yoke runs, not settings of Yoke itself. */
const NOT_YOKE_SETTINGS = new Set([
  'HOME',
  'PATH',
  'SHELL',
  'GIT_DIR',
  'XDG_CONFIG_HOME',
  'LC_ALL',
  // Set for the git processes Yoke runs (git-config-safety, git-neutral-env), not read from users.
  'GIT_OPTIONAL_LOCKS',
  'GIT_CONFIG_COUNT',
  // Passed through to the tools the calibration suites run (calibration-run.ts), test support only.
  'LD_LIBRARY_PATH',
  'PERL5LIB',
  // Set by the Agent SDK for the protocol; nothing a user sets.
  'CLAUDE_CODE_SDK_READS_SESSION_STATE',
  // Set by the terminal (and tmux); read to pick how a notification is shown and whether the
  // terminal rewraps its rows on a resize.
  'TERM',
  'TERM_PROGRAM',
  'KITTY_WINDOW_ID',
  'TMUX',
  'XTERM_VERSION',
]);

describe('yoke --help', () => {
  const help = helpText();

  it('lists every flag the README mentions', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    // Yoke's flags: in code spans that start with a flag or `yoke`, and in `yoke …` example lines
    // (not `git push --force` or `tsc --noEmit`).
    const spans = [...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string);
    const mentions = [...spans, ...readme.split('\n')].filter((text) => /^(--|-p\b|yoke )/.test(text));
    const flags = new Set(
      mentions.flatMap((text) => text.match(/(?<![\w-])--[a-z][a-zA-Z-]*[a-zA-Z]/g) ?? []),
    );
    expect(flags.size).toBeGreaterThan(20);
    const missing = [...flags].filter((flag) => !help.includes(flag));
    expect(missing).toEqual([]);
  });

  it('lists every environment variable the code reads', () => {
    const read = new Set<string>();
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /\b[eE]nv\??\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
      )) {
        const name = (match[1] ?? match[2]) as string;
        if (!NOT_YOKE_SETTINGS.has(name)) read.add(`${name} (${relative(ROOT, file)})`);
      }
    }
    expect(read.size).toBeGreaterThan(5);
    const missing = [...read].filter((entry) => !help.includes(entry.split(' ')[0] as string));
    expect(missing).toEqual([]);
  });

  it('marks every flag that is not implemented, and no other', () => {
    for (const { flag } of UNAVAILABLE_FLAGS) expect(lineOf(help, flag), flag).toMatch(/not available yet/);
    for (const flag of NO_EFFECT_FLAGS) {
      const line = lineOf(help, flag);
      // Hidden flags (SDK plumbing) have no line to mark.
      if (line !== undefined) expect(line, flag).toMatch(/\(accepted; no effect yet\)/);
    }
    expect(lineOf(help, '--max-turns')).not.toMatch(/not available|no effect/);
    expect(lineOf(help, '--effort')).not.toMatch(/no effect yet/);
  });
});
