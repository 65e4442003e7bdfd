/**
 * `@path` imports in a repository's memory files, through the built CLI. A cloned repository's
 * CLAUDE.md that imports `@~/.ssh/id_ed25519` or an absolute path would put that file into the
 * system prompt — sent to the model before anyone could say no. Claude Code does not load such
 * an import from a project file without an approval (reference/compat-surface.md, Imports).
 * Calibrated: before, the request carried the home folder's secret and the file beside the
 * project. Controls: imports inside the project, and the user's own memory files importing from
 * the home folder, still load.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_MEMORY_FILE_BYTES } from '../../src/config/memory/memory-imports';
import { mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

describe("a project's memory imports", () => {
  it('load what lies inside the project, and nothing outside it', async () => {
    const home = await tempProject('yoke-mem-home-');
    const outside = await tempProject('yoke-mem-outside-');
    const project = await tempProject('yoke-mem-project-');
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'HOME_KEY_7731\n');
    writeFileSync(join(outside, 'notes.md'), 'OUTSIDE_TEXT_2217\n');
    mkdirSync(join(project, 'docs'));
    writeFileSync(join(project, 'docs', 'style.md'), 'INSIDE_STYLE_5120\n');
    writeFileSync(
      join(project, 'CLAUDE.md'),
      `Project notes.\n@docs/style.md\n@~/.ssh/id_ed25519\n@${join(outside, 'notes.md')}\n@../${outside.split('/').pop()}/notes.md\n`,
    );
    // The user's own memory file may import from the home folder.
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, 'mine.md'), 'USER_IMPORT_9043\n');
    writeFileSync(join(home, '.claude', 'CLAUDE.md'), '@~/mine.md\n');
    ws.answer('ok');
    const result = await runYoke(['-p', 'hi'], {
      cwd: project,
      env: { ...mockEnv(ws.server.url, home), HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') },
    });
    expect(result.code, result.stderr).toBe(0);
    const sent = JSON.stringify(ws.server.requests.at(-1)?.body);
    expect(sent).toContain('INSIDE_STYLE_5120');
    expect(sent).toContain('USER_IMPORT_9043');
    expect(sent).not.toContain('HOME_KEY_7731');
    expect(sent).not.toContain('OUTSIDE_TEXT_2217');
    expect(result.stderr).toContain('~/.ssh/id_ed25519');
  });

  it('leave out a file a Read deny rule covers, inside the project too', async () => {
    const home = await tempProject('yoke-mem-home-');
    const project = await tempProject('yoke-mem-project-');
    writeFileSync(join(project, '.env'), 'DOTENV_SECRET_4410\n');
    writeFileSync(join(project, 'style.md'), 'STYLE_OK_3001\n');
    writeFileSync(join(project, 'CLAUDE.md'), 'Notes.\n@./.env\n@style.md\n');
    mkdirSync(join(home, '.claude'));
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }),
    );
    ws.answer('ok');
    const result = await runYoke(['-p', 'hi'], {
      cwd: project,
      env: { ...mockEnv(ws.server.url, home), HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') },
    });
    expect(result.code, result.stderr).toBe(0);
    const sent = JSON.stringify(ws.server.requests.at(-1)?.body);
    expect(sent).toContain('STYLE_OK_3001');
    expect(sent).not.toContain('DOTENV_SECRET_4410');
    expect(result.stderr).toContain('Read(./.env)');
  });
});

/**
 * A repository's files that Yoke reads before anyone is asked, as FIFOs and oversized files.
 * Calibrated through the built CLI: before, `yoke -p` in each of these repositories never
 * started (a FIFO's open waited for a writer; SIGTERM did not end it). Control: the same
 * repository's regular memory file and import still load.
 */
describe.runIf(process.platform !== 'win32')('special files a repository plants', () => {
  it('are skipped with a notice naming each one; the regular ones still load', async () => {
    const home = await tempProject('yoke-fifo-home-');
    const project = await tempProject('yoke-fifo-project-');
    execFileSync('git', ['init', '-q'], { cwd: project });
    execFileSync('mkfifo', [join(project, 'pipe.md')]);
    writeFileSync(join(project, 'huge.md'), `HUGE_TEXT_${'x'.repeat(MAX_MEMORY_FILE_BYTES)}`);
    writeFileSync(join(project, 'style.md'), 'STYLE_FINE_8120\n');
    writeFileSync(join(project, 'CLAUDE.md'), 'Notes.\n@pipe.md\n@huge.md\n@style.md\n');
    mkdirSync(join(project, '.yoke'));
    execFileSync('mkfifo', [join(project, '.yoke', 'YOKE.md')]);
    mkdirSync(join(project, '.claude', 'skills', 'stuck'), { recursive: true });
    execFileSync('mkfifo', [join(project, '.claude', 'skills', 'stuck', 'SKILL.md')]);
    execFileSync('mkfifo', [join(project, '.mcp.json')]);
    ws.answer('ok');
    const result = await runYoke(['-p', 'hi'], {
      cwd: project,
      env: { ...mockEnv(ws.server.url, home), HOME: home },
    });
    expect(result.code, result.stderr).toBe(0);
    const sent = JSON.stringify(ws.server.requests.at(-1)?.body);
    expect(sent).toContain('STYLE_FINE_8120');
    expect(sent).not.toContain('HUGE_TEXT_');
    expect(result.stderr).toContain(
      `imports pipe.md: not loaded, ${join(project, 'pipe.md')} is a FIFO (named pipe)`,
    );
    expect(result.stderr).toContain(
      `imports huge.md: not loaded, ${join(project, 'huge.md')} is 1.0 MB, over the 1.0 MB`,
    );
    expect(result.stderr).toContain(`${join(project, '.yoke', 'YOKE.md')} is a FIFO`);
    expect(result.stderr).toContain(`${join(project, '.claude', 'skills', 'stuck', 'SKILL.md')} is a FIFO`);
    expect(result.stderr).toContain(`${join(project, '.mcp.json')}: is a FIFO`);
  });

  it('refuses a settings file that is a FIFO, saying so, instead of waiting for it', async () => {
    const home = await tempProject('yoke-fifo-home-');
    const project = await tempProject('yoke-fifo-project-');
    mkdirSync(join(project, '.claude'));
    execFileSync('mkfifo', [join(project, '.claude', 'settings.json')]);
    const result = await runYoke(['-p', 'hi'], { cwd: project, env: mockEnv(ws.server.url, home) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Settings file ${join(project, '.claude', 'settings.json')} is a FIFO (named pipe), not a regular file`,
    );
  });
});
