import { describe, expect, it } from 'vitest';
import { text } from '../engine/query-test-support';
import { FakeProvider } from '../testing/fake-provider';
import { BUILT_IN_AGENTS } from './built-in';
import { runSkillInFork } from './fork-skill';
import { parentWithRuntime } from './test-support';

describe('runSkillInFork', () => {
  it("runs the skill's text as the named agent's task and hands back its report with the Agent tool's metadata", async () => {
    const provider = new FakeProvider([text('Changelog drafted.')]);
    const { parent } = parentWithRuntime(provider, { definitions: [...BUILT_IN_AGENTS] });
    const result = await runSkillInFork({
      skillName: 'changelog',
      content: 'Draft a changelog for v2.',
      agentType: 'Explore',
      parent,
      signal: new AbortController().signal,
    });
    expect(result.output).toMatchObject({
      status: 'completed',
      agentType: 'Explore',
      content: [{ type: 'text', text: 'Changelog drafted.' }],
      prompt: 'Draft a changelog for v2.',
    });
    expect(result.text).toMatch(/^Changelog drafted\.\n\n\[agent a[0-9a-f]{16} \(Explore\)/);
    const [request] = provider.requests;
    expect(JSON.stringify(request?.messages)).toContain('Draft a changelog for v2.');
    expect(request?.system.map((part) => part.text).join('\n')).toContain('You can only read and search');
  });

  it('refuses a skill that names an agent nobody defined, listing the known ones', async () => {
    const { parent } = parentWithRuntime(new FakeProvider([]), { definitions: [...BUILT_IN_AGENTS] });
    await expect(
      runSkillInFork({
        skillName: 'x',
        content: 'y',
        agentType: 'ghost',
        parent,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(
      'The skill "x" names the agent "ghost", which does not exist. Known agents: Explore, general-purpose, Plan.',
    );
  });
});
