/**
 * `reloadSkills()` and `reloadPlugins()` through the unmodified Agent SDK against the built CLI:
 * a command file written while the session runs, and a plugin folder added by path, are found
 * again on disk, listed in the answer, and usable from the next turn.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTree } from '../../src/plugins/test-support';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { tempProject } from './helpers';
import { bashGate, call, say, sdkSession } from './sdk-session';

async function session(
  scenario: ScenarioInput = [say('first'), say('second')],
  onToolCall?: (name: string) => void,
  cwd?: string,
) {
  return sdkSession({ scenario, ...(onToolCall ? { onToolCall } : {}), ...(cwd ? { cwd } : {}) });
}

describe('reloading from disk through the Agent SDK', () => {
  it('reloadSkills() finds a command written after start; the next turn runs it', async () => {
    const s = await session();
    await s.turn('hello');
    expect((await s.q.supportedCommands()).map((c) => c.name)).not.toContain('ship');
    await mkdir(join(s.cwd, '.claude', 'commands'), { recursive: true });
    await writeFile(
      join(s.cwd, '.claude', 'commands', 'ship.md'),
      '---\ndescription: Ship the release\nargument-hint: <version>\n---\nSHIP-BODY: release $ARGUMENTS now.\n',
    );
    const reloaded = await s.q.reloadSkills();
    expect(reloaded.skills).toContainEqual({
      name: 'ship',
      description: 'Ship the release (project)',
      argumentHint: '<version>',
    });
    await s.turn('/ship 2.0');
    await s.finish();
    expect(s.requestText(1)).toContain('SHIP-BODY: release 2.0 now.');
    // Each turn's system/init lists the commands of that turn.
    expect(s.slashCommands().map((names) => names.includes('ship'))).toEqual([false, true]);
  });

  it('reloadPlugins() adds a plugin folder: its commands and agents are listed and its command runs', async () => {
    const s = await session();
    await s.turn('hello');
    const plugin = await tempProject('yoke-plugin-');
    await writeTree(plugin, {
      '.claude-plugin/plugin.json': { name: 'kit', version: '1.2.0' },
      'commands/greet.md': '---\ndescription: Greet someone\n---\nGREET-BODY: say hi to $ARGUMENTS.\n',
      'agents/helper.md': '---\nname: helper\ndescription: Helps out.\n---\nYou help.\n',
    });
    const reloaded = await s.q.reloadPlugins({ addPlugins: [{ type: 'local', path: plugin }] });
    expect(reloaded.plugins).toEqual([
      expect.objectContaining({ name: 'kit', path: plugin, version: '1.2.0' }),
    ]);
    expect(reloaded.commands.map((c) => c.name)).toEqual(expect.arrayContaining(['compact', 'kit:greet']));
    expect(reloaded.agents.map((a) => a.name)).toContain('kit:helper');
    expect(reloaded.error_count).toBe(0);
    expect(reloaded.mcpServers).toEqual([]);
    await s.turn('/kit:greet Ada');
    await s.finish();
    expect(s.requestText(1)).toContain('GREET-BODY: say hi to Ada.');
    // The Agent tool offers the plugin's agent from the turn after the reload.
    expect(s.requestText(1)).toContain('kit:helper');
  });

  it('a reload while a turn runs takes effect at the next turn, not inside the running one', async () => {
    const gate = await bashGate();
    const cwd = gate.cwd;
    const s = await session(
      [gate.call, call('Skill', { skill: 'ship', args: '1.0' }), say('first done'), say('second')],
      gate.onToolCall,
      cwd,
    );
    const first = s.turn('hello');
    await gate.started;
    await mkdir(join(cwd, '.claude', 'commands'), { recursive: true });
    await writeFile(
      join(cwd, '.claude', 'commands', 'ship.md'),
      '---\ndescription: Ship\n---\nSHIP-BODY $ARGUMENTS\n',
    );
    const reloaded = await s.q.reloadSkills();
    expect(reloaded.skills.map((c) => c.name)).toContain('ship');
    await gate.open();
    await first;
    // Inside the running turn the Skill tool still has the old set.
    expect(s.requestText(2)).toContain('There is no skill \\"ship\\"');
    await s.turn('/ship 2.0');
    await s.finish();
    expect(s.requestText(3)).toContain('SHIP-BODY 2.0');
    // The next turn's system/init already lists it.
    expect(s.slashCommands().map((names) => names.includes('ship'))).toEqual([false, true]);
  });
});
