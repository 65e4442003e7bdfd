/**
 * Plan mode with someone to answer (an SDK host taking permission prompts): the model presents
 * its plan with ExitPlanMode, the host approves or refuses it, and the session's mode — and with
 * it the tools the next request offers — follows the answer.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Options, query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { sdkEnv, tempProject, YOKE_BIN } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PLAN = '1. Write out.txt with the greeting.';

const planThenWrite: ScenarioInput = [
  {
    match: { lastUserTextContains: 'greeting' },
    reply: { content: [{ type: 'tool_use', name: 'ExitPlanMode', input: { plan: PLAN } }] },
  },
  {
    match: { lastToolResultContains: 'plan' },
    reply: {
      content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'out.txt', content: 'hello\n' } }],
    },
  },
  { match: { lastToolResultContains: '' }, reply: { content: [{ type: 'text', text: 'Done.' }] } },
];

async function run(canUseTool: Options['canUseTool']): Promise<{ project: string; messages: SDKMessage[] }> {
  server = await startMockServer({ scenario: planThenWrite });
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  const env = sdkEnv(server.url, home);
  let stderr = '';
  const messages: SDKMessage[] = [];
  const q = query({
    prompt: 'Plan the greeting file',
    options: {
      pathToClaudeCodeExecutable: YOKE_BIN,
      cwd: project,
      env,
      permissionMode: 'plan',
      canUseTool,
      stderr: (text) => {
        stderr += text;
      },
    },
  });
  for await (const message of q) messages.push(message);
  expect(messages.at(-1), stderr).toMatchObject({ type: 'result', subtype: 'success' });
  return { project, messages };
}

const toolNames = (index: number) =>
  (((server?.requests[index]?.body ?? {}) as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

function toolResultTexts(messages: SDKMessage[]): string[] {
  return messages.flatMap((m) =>
    m.type === 'user' && typeof m.message.content !== 'string'
      ? m.message.content.flatMap((b) => (b.type === 'tool_result' ? [JSON.stringify(b.content)] : []))
      : [],
  );
}

describe('plan mode over the Agent SDK', () => {
  it('asks the host to approve the plan, then offers and allows the write tools', async () => {
    const asked: { name: string; input: unknown }[] = [];
    const { project } = await run(async (name, input) => {
      asked.push({ name, input });
      return { behavior: 'allow', updatedInput: input };
    });
    expect(asked.map((a) => a.name)).toEqual(['ExitPlanMode', 'Write']);
    expect(asked[0]?.input).toEqual({ plan: PLAN });
    // Plan mode's pool holds no Write; the request after the approval does.
    expect(toolNames(0)).toEqual(expect.arrayContaining(['ExitPlanMode', 'Read']));
    expect(toolNames(0)).not.toContain('Write');
    expect(toolNames(1)).toContain('Write');
    expect(await readFile(join(project, 'out.txt'), 'utf8')).toBe('hello\n');
  });

  it('stays in plan mode when the host refuses the plan, and says how to get out', async () => {
    const { project, messages } = await run(async (name) =>
      name === 'ExitPlanMode'
        ? { behavior: 'deny', message: 'Not yet: add tests to the plan.' }
        : { behavior: 'allow' },
    );
    const [refused, write] = toolResultTexts(messages);
    expect(refused).toContain('Not yet: add tests to the plan.');
    // Write was never offered, so the call is refused as an unknown tool or by plan mode.
    expect(write).toMatch(/Write/);
    expect(toolNames(1)).not.toContain('Write');
    await expect(readFile(join(project, 'out.txt'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
