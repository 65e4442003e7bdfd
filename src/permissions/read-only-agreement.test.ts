/**
 * One source of truth: the Bash tool's read-only verdict (`isReadOnlyCommand`) and the permission
 * analysis (`ShellUnit.readOnly`) come from the same option tables, so they agree on every line of
 * the option corpus, dangerous or not.
 */
import { describe, expect, it } from 'vitest';
import { isReadOnlyCommand } from '../services/bash-parser';
import type { GitConfigSafety } from './git-config-safety';
import { DANGER_CASES } from './option-danger-cases';
import { analyzeShellCommand } from './shell-analysis';

const LINES = [
  ...DANGER_CASES.map((c) => c.cmd),
  'sort data.txt',
  'git grep needle',
  'sed -n 1p f',
  'grep -r foo src',
  'cat README.md',
  'ls -la',
  'git log --oneline -5',
  'git diff HEAD~1 -- src',
  "find . -name '*.ts'",
  'rg foo src',
  'jq .name package.json',
  'env',
  'command -v node',
  'nohup ls',
  'xargs echo',
  'xargs grep foo',
  'timeout 5 cat x',
  'env -C src cat x',
  'time ls',
];

/**
 * The repository's own configuration is a fact about the machine, not the line: the analysis
 * checks it on top of the tables (git-config-safety.ts). Here every repository is harmless.
 */
const harmlessRepositories = { check: async () => ({ harmless: true }) } as unknown as GitConfigSafety;

describe('the Bash tool and the permission analysis agree on read-only', () => {
  it.each(LINES)('%s', async (line) => {
    const analysis = await analyzeShellCommand(line, {
      cwd: '/home/u/proj',
      home: '/home/u',
      gitConfig: harmlessRepositories,
    });
    const units = !analysis.parseError && !analysis.hasSubstitution && analysis.units.length > 0;
    const analysed = units && analysis.units.every((u) => u.readOnly && !u.evalLike);
    expect(analysed).toBe(await isReadOnlyCommand(line));
  });
});
