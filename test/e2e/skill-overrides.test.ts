/**
 * `skillOverrides` in the user's settings through the built CLI: `off` takes a command out of the
 * session (system/init, the slash, the listing), `user-invocable-only` keeps it from the model's
 * listing while `/name` still runs, `name-only` lists it without its description.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

async function skill(cwd: string, name: string, description: string): Promise<void> {
  await mkdir(join(cwd, '.claude/skills', name), { recursive: true });
  await writeFile(
    join(cwd, '.claude/skills', name, 'SKILL.md'),
    `---\ndescription: ${description}\n---\nDo ${name}.\n`,
  );
}

describe('skillOverrides', () => {
  it('turns skills off, keeps them for the user only, or lists them by name only', async () => {
    const cwd = await tempProject();
    const home = await tempProject('yoke-home-');
    await skill(cwd, 'retired', 'An old skill');
    await skill(cwd, 'personal', 'Only when I ask');
    await skill(cwd, 'terse', 'A description the model does not need');
    await writeFile(
      join(home, 'settings.json'),
      JSON.stringify({
        skillOverrides: { retired: 'off', personal: 'user-invocable-only', terse: 'name-only' },
      }),
    );
    const yoke = (args: string[]) => runYoke(args, { cwd, env: mockEnv(ws.server.url, home) });

    ws.answer('ok');
    const run = await yoke(['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expect(run.code).toBe(0);
    const init = JSON.parse(run.stdout.split('\n')[0] as string) as {
      slash_commands: string[];
      skills: string[];
    };
    expect(init.slash_commands).toEqual(expect.arrayContaining(['personal', 'terse']));
    expect(init.slash_commands).not.toContain('retired');
    const sent = JSON.stringify(ws.server.requests[0]?.body);
    expect(sent).toContain('- terse\\n');
    expect(sent).not.toContain('A description the model does not need');
    expect(sent).not.toContain('- personal');
    expect(sent).not.toContain('retired');

    ws.answer('done');
    const typed = await yoke(['-p', '/personal now']);
    expect(typed.code).toBe(0);
    expect(JSON.stringify(ws.server.requests[0]?.body)).toContain('Do personal.');
    const gone = await yoke(['-p', '/retired']);
    expect(gone.code).toBe(1);
    expect(gone.stdout + gone.stderr).toContain('/retired');
  });
});
