/**
 * An agent's `initialPrompt` in the REPL (tmux, against the mock model server): `yoke --agent X`
 * opens with it as the first turn without the user typing; a prompt given on the command line
 * follows it in the same turn (as with `-p`); the line mode does the same; `--continue` does not
 * send it again; the `agent` setting chooses the agent as `--agent` does.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runYoke, tempProject } from '../helpers';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-initial-prompt-', async (cwd) => {
  await mkdir(join(cwd, '.claude', 'agents'), { recursive: true });
  await writeFile(
    join(cwd, '.claude', 'agents', 'triage.md'),
    '---\nname: triage\ndescription: Triages the inbox.\ninitialPrompt: INITIAL-ASK list the open issues\n---\nYou triage.\n',
  );
});

type Body = { messages: { role: string; content: unknown }[] };
const firstUserText = (index: number) =>
  JSON.stringify((fx.server.requests[index]?.body as Body | undefined)?.messages[0]?.content ?? '');
const answer = (text: string) => fx.server.reset([{ reply: { content: [{ type: 'text', text }] } }]);

describe.skipIf(!hasTmux)("an agent's initialPrompt in the REPL", { timeout: 120_000 }, () => {
  it('is the first turn of `--agent X`, sent without typing', async () => {
    answer('three issues are open');
    const t = await fx.open(['--agent', 'triage']);
    const screen = await t.waitFor((s) => s.includes('three issues are open') && READY(s), {
      timeoutMs: 45_000,
    });
    expect(screen).toContain('> INITIAL-ASK list the open issues');
    expect(fx.server.requests).toHaveLength(1);
    expect(firstUserText(0)).toContain('INITIAL-ASK list the open issues');
  });

  it('comes before a prompt given on the command line, in one turn', async () => {
    answer('triaged, and labelled');
    const t = await fx.open(['--agent', 'triage', 'then label them']);
    await t.waitFor('triaged, and labelled', { timeoutMs: 45_000 });
    expect(fx.server.requests).toHaveLength(1);
    expect(firstUserText(0)).toMatch(/INITIAL-ASK list the open issues\\n\\nthen label them/);
  });

  it('is the first turn in the line mode too', async () => {
    answer('line mode triage done');
    const t = await fx.open(['--agent', 'triage'], { term: 'dumb' });
    const screen = await t.waitFor('line mode triage done', { timeoutMs: 45_000 });
    expect(screen).toContain('> INITIAL-ASK list the open issues');
    expect(firstUserText(0)).toContain('INITIAL-ASK');
  });

  it('is not sent again when the conversation is continued', async () => {
    answer('first answer');
    const past = await runYoke(['-p', '--agent', 'triage', '--output-format', 'json'], {
      cwd: fx.cwd,
      env: fx.env(),
    });
    expect(past.code, past.stderr).toBe(0);
    answer('continued answer');
    const t = await fx.open(['--agent', 'triage', '--continue']);
    await t.waitFor(READY, { timeoutMs: 45_000 });
    await t.type('anything new?');
    await t.press('Enter');
    await t.waitFor('continued answer');
    expect(fx.server.requests).toHaveLength(1);
    const sent = JSON.stringify(fx.server.requests[0]?.body);
    // The earlier turn's initialPrompt is in the history once; the new turn is the typed prompt.
    expect(sent.split('INITIAL-ASK').length - 1).toBe(1);
    expect(sent).toContain('anything new?');
  });

  it('comes from the agent setting too; in a folder nobody trusted, nothing is sent before it is trusted', async () => {
    const withSetting = async (trusted: boolean) => {
      const dir = await tempProject('yoke-agent-setting-');
      await mkdir(join(dir, '.claude', 'agents'), { recursive: true });
      await writeFile(
        join(dir, '.claude', 'agents', 'triage.md'),
        '---\nname: triage\ndescription: Triages.\ninitialPrompt: SETTING-ASK what is open\n---\nYou triage.\n',
      );
      await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ agent: 'triage' }));
      if (trusted) await runYoke(['trust'], { cwd: dir, env: fx.env() });
      return dir;
    };
    answer('answered from the setting');
    let t = await fx.open([], { cwd: await withSetting(true) });
    await t.waitFor('answered from the setting', { timeoutMs: 45_000 });
    expect(firstUserText(0)).toContain('SETTING-ASK what is open');
    await t.close();

    // In a folder nobody trusted, the repository's agent sends nothing before the user is asked,
    // and nothing when the answer is no.
    answer('never sent');
    t = await fx.open([], { cwd: await withSetting(false) });
    await t.waitFor('Do you trust the files in this folder?', { timeoutMs: 45_000 });
    expect(fx.server.requests).toHaveLength(0);
    await t.press('2');
    await t.waitFor('Not trusted: nothing was run.');
    expect(await t.exitCode()).toBe(1);
    expect(fx.server.requests).toHaveLength(0);
  });
});
