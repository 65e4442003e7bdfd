/**
 * What a plugin reload does with the SessionStart hooks it brings, through the unmodified Agent
 * SDK against the built CLI with real hook commands: a reload is not a session start, so in a
 * session that has started they do not run (one line on stderr says so); before the first turn
 * the session has not started yet, and they run at its start like any other.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTree } from '../../src/plugins/test-support';
import { tempProject } from './helpers';
import { say, sdkSession } from './sdk-session';

/** A plugin whose SessionStart and UserPromptSubmit hooks append their event's name to `log`. */
async function startPlugin(log: string): Promise<string> {
  const root = await tempProject('yoke-plugin-greeter-');
  const group = (word: string) => [{ hooks: [{ type: 'command', command: `echo ${word} >> '${log}'` }] }];
  await writeTree(root, {
    '.claude-plugin/plugin.json': { name: 'greeter', version: '1.0.0' },
    'hooks/hooks.json': {
      hooks: { SessionStart: group('session-start'), UserPromptSubmit: group('prompt') },
    },
  });
  return root;
}

const NOTICE =
  'reload: the SessionStart hooks of plugin "greeter" did not run: a reload does not start the session again; they run when a session starts (a new session, a resume, or /clear in the REPL).';

async function session() {
  const log = join(await tempProject('yoke-log-'), 'hooks.log');
  let stderr = '';
  const s = await sdkSession({
    scenario: [say('one'), say('two')],
    options: { stderr: (text) => (stderr += text) },
  });
  const ran = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return { s, log, ran, stderr: () => stderr };
}

describe('reloadPlugins() and SessionStart hooks', () => {
  it('after the session started: the new plugin’s SessionStart hook does not run, its other hooks do, and stderr says why', async () => {
    const { s, log, ran, stderr } = await session();
    await s.turn('hello');
    await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: await startPlugin(log) }] });
    await s.turn('again');
    await s.finish();
    expect(await ran()).toEqual(['prompt']);
    expect(stderr()).toContain(NOTICE);
  });

  it('before the first turn: the session starts after the reload, so the hook runs at its start, and nothing is said', async () => {
    const { s, log, ran, stderr } = await session();
    await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: await startPlugin(log) }] });
    await s.turn('hello');
    await s.finish();
    expect(await ran()).toEqual(['session-start', 'prompt']);
    expect(stderr()).not.toContain('SessionStart hooks');
  });
});
