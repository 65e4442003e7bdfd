/**
 * Slash commands and skills as the unmodified Agent SDK sees them (issue 16): `supportedCommands()`
 * describes the session's commands, a `/command` prompt expands, and the `skills` option limits
 * what the model is offered.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { sdkEnv, tempProject, YOKE_BIN } from './helpers';

const FIXTURES = join(import.meta.dirname, '../../src/skills/fixtures/project');

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function options(extra: Record<string, unknown> = {}) {
  server = await startMockServer({ scenario: [{ reply: { content: [{ type: 'text', text: 'done' }] } }] });
  const cwd = await tempProject();
  await cp(FIXTURES, cwd, { recursive: true });
  return {
    pathToClaudeCodeExecutable: YOKE_BIN,
    cwd,
    env: sdkEnv(server.url, await tempProject('yoke-home-')),
    ...extra,
  };
}

const requestText = () =>
  JSON.stringify((server?.requests[0]?.body as { messages: unknown } | undefined)?.messages ?? 'no request');

describe('slash commands through the Agent SDK', () => {
  it('describes the commands in supportedCommands(): name, description, argument hint', async () => {
    const q = query({ prompt: '/frontend:component Card', options: await options() });
    const commands = await q.supportedCommands();
    const messages: SDKMessage[] = [];
    for await (const message of q) messages.push(message);
    expect(commands).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'compact', argumentHint: '[instructions]' }),
        expect.objectContaining({
          name: 'frontend:component',
          description: 'Scaffold a React component with a test next to it (project)',
          argumentHint: '<ComponentName> [folder]',
        }),
        expect.objectContaining({ name: 'pdf-forms' }),
      ]),
    );
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'done' });
    expect(requestText()).toContain('<command-name>/frontend:component</command-name>');
  });

  it('offers the model only the skills the skills option names', async () => {
    const q = query({ prompt: 'hello', options: await options({ skills: ['pdf-forms'] }) });
    for await (const _ of q) {
      // run to the end
    }
    const sent = requestText();
    expect(sent).toContain('- pdf-forms:');
    expect(sent).not.toContain('- review:');
  });
});
