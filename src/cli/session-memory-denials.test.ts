import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryReadDenial } from './session-memory-denials';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-memory-denials-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('memoryReadDenial', () => {
  it("names the settings' or the command line's Read deny rule that covers a path, under any spelling", () => {
    writeFileSync(join(dir, '.env'), 'x');
    writeFileSync(join(dir, 'style.md'), 'x');
    writeFileSync(join(dir, 'key.pem'), 'x');
    symlinkSync(join(dir, '.env'), join(dir, 'env-link'));
    const denied = memoryReadDenial({
      settingsRules: [
        { rule: 'Read(./.env)', behavior: 'deny', source: 'userSettings' },
        { rule: 'Read(./style.md)', behavior: 'allow', source: 'userSettings' },
        { rule: 'Edit(./style.md)', behavior: 'deny', source: 'userSettings' },
      ],
      cliDisallowed: [`Read(/${dir}/*.pem)`],
      cwd: dir,
      home: '/home/nobody',
    });
    expect(denied(join(dir, '.env'))).toBe('Read(./.env) (userSettings)');
    expect(denied(join(dir, 'env-link'))).toBe('Read(./.env) (userSettings)');
    expect(denied(join(dir, 'key.pem'))).toBe(`Read(/${dir}/*.pem) (cliArg)`);
    // Controls: an allow rule and an Edit deny rule keep nothing from the prompt.
    expect(denied(join(dir, 'style.md'))).toBeUndefined();
  });
});
