import { describe, expect, it } from 'vitest';
import { definition, parentWithRuntime, tierPool } from '../agents/test-support';
import { callTool, text } from '../engine/query-test-support';
import { isSubagentProgress } from '../engine/subagent-progress';
import { noopHooks } from '../hooks/types';
import type { CanUseToolFn, PermissionRule } from '../permissions/types';
import { FakeProvider } from '../testing/fake-provider';
import { skillTool } from '../tools/builtin/skill';
import { SessionServices } from '../tools/session-services';
import type { ToolProgress } from '../tools/tool';
import { SessionSkills } from './session-skills';
import { promptSpec } from './test-support';
import type { PromptCommandSpec } from './types';

const spec = (over: Partial<PromptCommandSpec>) =>
  promptSpec({
    name: 'audit',
    description: 'audits a module',
    hasUserSpecifiedDescription: true,
    context: 'fork',
    agent: 'helper',
    source: 'user',
    body: { kind: 'text', text: 'Audit the module $ARGUMENTS and list its risks.' },
    ...over,
  });

/** A session whose skills are `specs`, with an agent runtime on `provider`; rules seen by each permission call are kept. */
function session(specs: PromptCommandSpec[], provider: FakeProvider, trusted = true) {
  const skills = new SessionSkills({
    specs,
    sessionId: 's-1',
    projectRoot: '/project',
    trusted,
    listingBudgetTokens: 1000,
    pipeline: () => ({ canUseTool: async () => ({ behavior: 'allow' }), hooks: noopHooks }),
  });
  const rulesSeen: PermissionRule[][] = [];
  const canUseTool: CanUseToolFn = async (request) => {
    rulesSeen.push([...request.context.permissionContext.rules]);
    return { behavior: 'allow' };
  };
  const { parent } = parentWithRuntime(provider, {
    pool: [...tierPool(), skillTool],
    canUseTool,
    definitions: [definition(), definition({ agentType: 'Explore', maxTier: 'read' })],
    context: { services: new SessionServices({ env: {}, skills }), toolUseId: 'toolu_skill_1' },
  });
  return { skills, parent, rulesSeen };
}

describe('a context: fork skill run by the model', () => {
  it("runs the expanded body as the named agent's task on the skill's model, and returns the report with run metadata", async () => {
    const provider = new FakeProvider([text('Risks: none found.')]);
    const { skills, parent } = session([spec({ model: 'model-for-audits' })], provider);
    const progress: ToolProgress[] = [];
    const launch = await skills.launch('audit', 'src/auth', parent, (p) => progress.push(p));
    expect(launch).toMatchObject({
      kind: 'forked',
      commandName: 'audit',
      agentType: 'helper',
      isError: false,
    });
    if (launch.kind !== 'forked') return;
    expect(launch.text).toContain('Risks: none found.');
    expect(launch.text).toMatch(/\[agent a[0-9a-f]{16} \(helper\) · 0 tool uses/);
    expect(launch.details).toMatchObject({ agentId: launch.agentId, resolvedModel: 'model-for-audits' });
    const [request] = provider.requests;
    expect(request?.model).toBe('model-for-audits');
    expect(request?.system.map((part) => part.text).join('\n')).toContain(
      'You are the helper agent of a test.',
    );
    const sent = JSON.stringify(request?.messages);
    expect(sent).toContain('Audit the module src/auth and list its risks.');
    // The command line is the parent's business; the worker gets the task alone.
    expect(sent).not.toContain('<command-name>');
    // The worker's messages go out as the Skill call's progress, for nesting under it.
    const nested = progress.filter((p) => isSubagentProgress(p.data));
    expect(nested.length).toBeGreaterThanOrEqual(2);
    expect(nested.every((p) => p.toolUseId === 'toolu_skill_1')).toBe(true);
    // Its body is not the conversation's: compaction keeps nothing of it.
    expect(skills.activeSkills()).toEqual([]);
  });

  it('uses general-purpose when the skill names no agent, and refuses an unknown agent by listing the known ones', async () => {
    const { skills, parent } = session(
      [spec({ name: 'plain', agent: undefined }), spec({ name: 'ghostly', agent: 'ghost' })],
      new FakeProvider([]),
    );
    await expect(skills.launch('ghostly', '', parent)).rejects.toThrow(
      'The skill "ghostly" names the agent "ghost", which does not exist. Known agents: Explore, helper.',
    );
    await expect(skills.launch('plain', '', parent)).rejects.toThrow(
      'names the agent "general-purpose", which does not exist',
    );
  });

  it("grants the skill's allowed-tools to the worker alone, on top of the session's rules", async () => {
    const provider = new FakeProvider([callTool('c1'), text('done')]);
    const { skills, parent, rulesSeen } = session([spec({ allowedTools: ['Echo'] })], provider);
    await skills.launch('audit', '', parent);
    expect(rulesSeen).toHaveLength(1);
    expect(rulesSeen[0]).toContainEqual(expect.objectContaining({ toolName: 'Echo', behavior: 'allow' }));
    expect(parent.getPermissionContext().rules).toEqual([]);
  });

  it("drops an untrusted project's allowed-tools: its worker runs under the session's rules only", async () => {
    const provider = new FakeProvider([callTool('c1'), text('done')]);
    const { skills, parent, rulesSeen } = session(
      [spec({ source: 'project', allowedTools: ['Echo'] })],
      provider,
      false,
    );
    await skills.launch('audit', '', parent);
    expect(rulesSeen).toEqual([[]]);
  });

  it("refuses a fork inside a fork's worker with a line for it, and the worker goes on to report", async () => {
    const provider = new FakeProvider([
      { content: [{ type: 'tool_use', id: 'inner', name: 'Skill', input: { skill: 'audit' } }] },
      text('Could not fork; reported directly.'),
    ]);
    const { skills, parent } = session([spec({})], provider);
    const launch = await skills.launch('audit', 'x', parent);
    expect(provider.requests).toHaveLength(2);
    const second = JSON.stringify(provider.requests[1]?.messages);
    expect(second).toContain("this agent is itself a forked skill's worker, which cannot fork again");
    expect(launch.kind === 'forked' && launch.text).toContain('Could not fork; reported directly.');
  });
});
