/**
 * The code-read attack set (red-team-code-read-cases.ts) through the real pipeline, and each row
 * run for real with bash in a scratch project (calibration-run.ts): the code printed the secret.
 */
import { describe, expect, it } from 'vitest';
import { calibrationSuite } from './calibration-run';
import { decideCase } from './corpus-test-support';
import {
  RED_TEAM_CODE_READ_CALIBRATED,
  RED_TEAM_CODE_READ_CASES,
  RED_TEAM_FOLDER_READ_CALIBRATED,
  RED_TEAM_FOLDER_READ_DISK_CASES,
} from './red-team-code-read-cases';
import { expectBlocked, redTeamCases } from './red-team-suite';

describe('red-team code reads', () => {
  redTeamCases(RED_TEAM_CODE_READ_CASES, RED_TEAM_CODE_READ_CALIBRATED);

  // The folder rows run on the disk project (red-team-disk-corpus.test.ts).
  it('holds every folder-read hole as a disk row that blocks it', () =>
    expectBlocked(RED_TEAM_FOLDER_READ_DISK_CASES, RED_TEAM_FOLDER_READ_CALIBRATED));

  it('says in one line which rule and why', async () => {
    const canUse = await import('./can-use-tool');
    const { corpusRequest, caseRules, PROJECT } = await import('./corpus-test-support');
    const decide = canUse.createCanUseTool({
      home: '/home/u',
      fs: (await import('./real-paths')).emptyPathFs,
    });
    const c = { deny: ['Read(./.env)'], mode: 'bypassPermissions' as const, expect: 'deny' as const };
    const decision = await decide(
      corpusRequest(
        'Bash',
        { command: `python3 -c 'print(open(".env").read())'` },
        {
          permissionContext: { mode: 'bypassPermissions', rules: caseRules(c), additionalDirectories: [] },
          projectRoot: PROJECT,
        },
      ),
    );
    expect(decision).toMatchObject({
      behavior: 'deny',
      message: `Denied by rule Read(./.env) (projectSettings): \`python3 -c 'print(open(".env").read())'\` runs code that names .env.`,
    });
    const asked = await decideCase({ cmd: 'python3 script.py', ...c, expect: 'ask' });
    expect(asked.question).toContain(
      '`python3 script.py`: python3 runs code Yoke does not read as code and it may read a file Read(./.env) (projectSettings) denies',
    );
  });
});

calibrationSuite('calibration: code Yoke does not read reads the denied file', RED_TEAM_CODE_READ_CALIBRATED);
calibrationSuite(
  'calibration: a folder copied or archived whole reads the denied file',
  RED_TEAM_FOLDER_READ_CALIBRATED,
);
