/** /tasks with real background shells and agents. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentTasks } from '../../agents/background/agent-tasks';
import { ScriptedWorker } from '../../agents/background/test-support';
import { BackgroundShells } from '../../tools/builtin/bash/shells';
import { waitFor } from '../../tools/builtin/bash/test-helpers';
import { commandText, createTestHost, type TestHost } from '../test-host';

let host: TestHost;
let shells: BackgroundShells;
beforeEach(async () => {
  host = await createTestHost();
  shells = new BackgroundShells();
});
afterEach(async () => {
  await shells.dispose();
  await host.cleanup();
});

describe('/tasks', () => {
  it('says when there are none', async () => {
    expect(await commandText(host, '/tasks')).toBe('No background shells or agents in this session.');
  });

  it('lists each shell with its status and the last line it printed', async () => {
    const sessionDir = join(host.root, 'session');
    const marker = join(host.root, 'serving');
    const start = (command: string, description: string) =>
      shells.start({ sessionDir, command, description, cwd: host.cwd, env: { PATH: process.env.PATH } });
    const done = start('echo building; echo built 3 files; exit 0', 'build');
    start(`echo starting; echo listening on :8080; touch ${marker}; sleep 300`, 'dev server');
    await waitFor(
      () => shells.get(done.id)?.status !== 'running' && existsSync(marker),
      'the shells to print',
    );
    host.shells = shells.list();
    const text = await commandText(host, '/tasks');
    const lines = text.split('\n');
    expect(lines[0]).toBe('Background shells (1 running):');
    expect(lines[1]).toMatch(/^bash_1 \(build\): completed with exit code 0, \d+s$/);
    expect(lines[2]).toBe('    built 3 files');
    expect(lines[3]).toMatch(/^bash_2 \(dev server\): running, \d+s$/);
    expect(lines[4]).toBe('    listening on :8080');
  });

  it('lists the background agents with their progress or the head of their result', async () => {
    const tasks = new AgentTasks();
    const worker = new ScriptedWorker();
    const launch = (description: string) =>
      tasks.launch({
        description,
        prompt: description,
        agentType: 'general-purpose',
        toolUseId: description,
        sessionDir: join(host.root, 'session'),
        launcher: worker.launcher,
        onFinished: () => {},
      });
    const done = launch('Audit deps');
    worker.last.end({ finalText: 'No vulnerable packages.\nDetails follow.' });
    await tasks.wait(done.id, 1000, new AbortController().signal);
    const busy = launch('Port the tests');
    host.agents = tasks.list();
    const lines = (await commandText(host, '/tasks')).split('\n');
    expect(lines[0]).toBe('Background agents (1 running):');
    expect(lines[1]).toMatch(new RegExp(`^${done.id} \\(Audit deps\\): completed, \\d+s$`));
    expect(lines[2]).toBe('    No vulnerable packages.');
    expect(lines[3]).toMatch(new RegExp(`^${busy.id} \\(Port the tests\\): running, \\d+s$`));
    await tasks.dispose();
  });
});
