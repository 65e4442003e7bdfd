import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createCommandRegistry } from '../../commands/registry';
import type { CommandHost } from '../../commands/types';
import type { QueryEngine } from '../../engine/query-engine';
import type { ProtectedPaths } from '../../permissions/protected-paths';
import { PromptRouter } from './prompt-router';
import { ReplSession } from './repl-session';
import { resultFrame, ScriptedEngine } from './scripted-engine';

/** A router on a real session and command registry; the engine is not reached by these lines. */
async function routerWith(projectRoot: string) {
  const session = new ReplSession();
  const commands = createCommandRegistry([
    {
      kind: 'local',
      name: 'cost',
      description: 'spent',
      run: async () => ({ kind: 'text', text: '$0.0100' }),
    },
  ]);
  const host = { commands, signal: new AbortController().signal } as unknown as CommandHost;
  const engine = { permissionRules: [] } as unknown as QueryEngine;
  const protectedPaths = { why: () => undefined } as unknown as ProtectedPaths;
  const router = new PromptRouter({
    session,
    history: { add: async () => true },
    ready: () => ({ engine, host, protectedPaths, projectRoot }),
    exit: () => {},
    switchSession: async () => {},
    pickSession: () => {},
    openView: () => false,
  });
  const shown = () =>
    session.transcript
      .getSnapshot()
      .committed.map((item) => ('text' in item ? `${item.kind}: ${item.text}` : item.kind));
  return { router, shown, session };
}

describe('PromptRouter', () => {
  it('shows a command as typed above what it answers', async () => {
    const { router, shown } = await routerWith(await mkdtemp(join(tmpdir(), 'yoke-router-')));
    await router.route('/cost ');
    await router.route('/cots');
    expect(shown()).toEqual([
      'user: /cost',
      'command-output: $0.0100',
      'user: /cots',
      'command-output: Unknown command /cots. Did you mean /cost?',
    ]);
  });

  it('shows a #note as typed above where it was written', async () => {
    const root = await mkdtemp(join(tmpdir(), 'yoke-router-'));
    const { router, shown } = await routerWith(root);
    await router.route('#run npm test before a commit');
    expect(shown()).toEqual([
      'user: #run npm test before a commit',
      `notice: Noted in ${join(root, 'AGENTS.md')} (new file).`,
    ]);
    expect(await readFile(join(root, 'AGENTS.md'), 'utf8')).toContain('- run npm test before a commit');
  });

  it('tells the model a #note with the next prompt (its system prompt has the file as it was)', async () => {
    const { router, session } = await routerWith(await mkdtemp(join(tmpdir(), 'yoke-router-')));
    const engine = new ScriptedEngine([
      async function* () {
        yield resultFrame();
      },
    ]);
    session.attach(engine);
    await router.route('#run npm test before a commit');
    await router.route('go on');
    await vi.waitFor(() =>
      expect(engine.prompts).toEqual([
        '<user-memory-input>run npm test before a commit</user-memory-input>\n\ngo on',
      ]),
    );
  });
});
