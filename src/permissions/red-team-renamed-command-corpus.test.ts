/**
 * The renamed-command attack set (red-team-renamed-command-cases.ts) through the real pipeline,
 * and each row run for real with bash in a scratch project (calibration-run.ts).
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { caseLabel, decideCase, runCase } from './corpus-test-support';
import {
  RED_TEAM_RENAMED_COMMAND_CALIBRATED,
  RED_TEAM_RENAMED_COMMAND_CASES,
} from './red-team-renamed-command-cases';

describe('red-team renamed commands', () => {
  it.each(RED_TEAM_RENAMED_COMMAND_CASES.map((c) => [`[${c.cls}] ${caseLabel(c)}`, c] as const))(
    '%s',
    async (_, c) => {
      expect(await runCase(c)).toBe(c.expect);
    },
  );

  it('holds every calibrated row as a case that blocks it', () => {
    for (const row of RED_TEAM_RENAMED_COMMAND_CALIBRATED) {
      const blocking = RED_TEAM_RENAMED_COMMAND_CASES.filter(
        (c) => c.cmd === row.cmd && c.expect !== 'allow',
      );
      expect(blocking.length, row.cmd).toBeGreaterThan(0);
    }
  });

  it('names the rule and the table in one line', async () => {
    const asked = await decideCase({
      cmd: 'BASH_CMDS[ls]=/usr/bin/touch; ls pwned',
      deny: ['Bash(touch:*)'],
      mode: 'bypassPermissions',
      expect: 'ask',
    });
    expect(asked.question).toContain('The rule Bash(touch:*) (projectSettings) denies what it may run.');
    expect(asked.question).toContain(
      'BASH_CMDS[ls]= changes what the shell runs at start-up or which program a name finds, so it cannot be checked against Bash(touch:*) (projectSettings)',
    );
  });
});

calibrationSuite(
  'calibration: a renamed command runs what the deny rule names',
  RED_TEAM_RENAMED_COMMAND_CALIBRATED,
);
