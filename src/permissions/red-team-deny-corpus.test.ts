/**
 * The deny-rule attack set (red-team-deny-cases.ts) through the real pipeline, and each hole it
 * found run for real with bash in a scratch project (calibration-run.ts): the effect the deny rule
 * now blocks.
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { caseLabel, decideCase, runCase } from './corpus-test-support';
import {
  RED_TEAM_DENY_CALIBRATED,
  RED_TEAM_DENY_CASES,
  RED_TEAM_DENY_DISK_CASES,
} from './red-team-deny-cases';

describe('red-team deny spellings', () => {
  it.each(RED_TEAM_DENY_CASES.map((c) => [`[${c.cls}] ${caseLabel(c)}`, c] as const))('%s', async (_, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });

  it('holds every calibrated hole as a row that blocks it', () => {
    for (const row of RED_TEAM_DENY_CALIBRATED) {
      const blocking = [...RED_TEAM_DENY_CASES, ...RED_TEAM_DENY_DISK_CASES].filter(
        (c) => c.cmd === row.cmd && c.expect !== 'allow',
      );
      expect(blocking.length, row.cmd).toBeGreaterThan(0);
    }
  });

  it('says in one line why: the rule, the command and the spelling', async () => {
    const deny = { deny: ['Bash(git tag:*)'], mode: 'bypassPermissions' as const, expect: 'deny' as const };
    const canUse = await import('./can-use-tool');
    const decide = canUse.createCanUseTool({
      home: '/home/u',
      fs: (await import('./real-paths')).emptyPathFs,
    });
    const { corpusRequest, caseRules, PROJECT } = await import('./corpus-test-support');
    const decision = await decide(
      corpusRequest(
        'Bash',
        { command: 'git -C . tag v1' },
        {
          permissionContext: { mode: 'bypassPermissions', rules: caseRules(deny), additionalDirectories: [] },
          projectRoot: PROJECT,
        },
      ),
    );
    expect(decision).toMatchObject({
      behavior: 'deny',
      message:
        "Denied by rule Bash(git tag:*) (projectSettings): `git -C . tag v1` runs what it denies (git's own options (`-C .`) come before the subcommand `tag`).",
    });
    const asked = await decideCase({ cmd: 'x=touch; $x pwned', deny: ['Bash(touch:*)'], expect: 'ask' });
    expect(asked.question).toContain(
      '`$x pwned` may run what Bash(touch:*) (projectSettings) denies: `$x` is only known when it runs and may be `touch`',
    );
  });
});

calibrationSuite('calibration: each deny-spelling hole has its effect when run', RED_TEAM_DENY_CALIBRATED);
