/**
 * The shell sandbox in the one permission decision: `autoAllowBashIfSandboxed` skips the prompt
 * for calls that run inside — never past a deny rule, an ask rule or a protected file — and a call
 * that asks to leave the sandbox always asks. The manager is real; its probe is fixed so the
 * verdicts do not depend on this machine's bubblewrap (the real runs are in sandboxed.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createCanUseTool } from '../permissions/can-use-tool';
import { corpusRequest, HOME, PROJECT } from '../permissions/corpus-test-support';
import { parseRule } from '../permissions/rule-string';
import type { PermissionDecision, PermissionRule } from '../permissions/types';
import type { SandboxAvailability } from './availability';
import { SandboxManager, sandboxJudge } from './manager';
import { defaultSandboxConfig, type SandboxConfig } from './settings';

const available = async (): Promise<SandboxAvailability> => ({ available: true, socat: true });

function decide(
  input: Record<string, unknown>,
  options: {
    config?: Partial<SandboxConfig>;
    rules?: string[];
    probe?: () => Promise<SandboxAvailability>;
  } = {},
): Promise<{ decision: PermissionDecision; asked?: string }> {
  const manager = new SandboxManager({
    config: { ...defaultSandboxConfig(), enabled: true, autoAllowBashIfSandboxed: true, ...options.config },
    projectRoot: PROJECT,
    additionalDirs: [],
    home: HOME,
    rules: [],
    protectedPaths: [],
    probe: options.probe ?? available,
  });
  let asked: string | undefined;
  const canUseTool = createCanUseTool({
    home: HOME,
    sandbox: sandboxJudge(manager),
    prompt: async (request) => {
      asked = request.message;
      return { behavior: 'deny', message: 'asked' };
    },
  });
  const rules = (options.rules ?? []).map((text) => {
    const space = text.indexOf(' ');
    const behavior = text.slice(0, space) as PermissionRule['behavior'];
    return parseRule(text.slice(space + 1), behavior, 'userSettings') as PermissionRule;
  });
  return canUseTool(
    corpusRequest('Bash', input, {
      permissionContext: { mode: 'default', rules, additionalDirectories: [] },
    }),
  ).then(async (decision) => {
    await manager.dispose();
    return asked === undefined ? { decision } : { decision, asked };
  });
}

describe('the sandbox in the permission decision', () => {
  it('allows a sandboxed command that would ask, naming the confinement as the reason', async () => {
    const { decision } = await decide({ command: 'npm install' });
    expect(decision.behavior).toBe('allow');
    expect(decision.decisionReason).toEqual({
      type: 'other',
      reason: expect.stringMatching(
        /^runs inside the sandbox \(sandbox\.autoAllowBashIfSandboxed\): writes only to \/home\/u\/proj, .* no network$/,
      ),
    });
  });

  it('still asks without autoAllowBashIfSandboxed, when the sandbox is unavailable, or for an excluded command', async () => {
    expect(
      (await decide({ command: 'npm install' }, { config: { autoAllowBashIfSandboxed: false } })).asked,
    ).toBeDefined();
    const unavailable = async (): Promise<SandboxAvailability> => ({ available: false, reason: 'no bwrap' });
    expect((await decide({ command: 'npm install' }, { probe: unavailable })).asked).toBeDefined();
    const excluded = await decide({ command: 'docker ps' }, { config: { excludedCommands: ['docker:*'] } });
    expect(excluded.asked).toBeDefined();
  });

  it('never passes a deny rule, an ask rule or a protected file', async () => {
    const denied = await decide({ command: 'rm -rf build' }, { rules: ['deny Bash(rm:*)'] });
    expect(denied.decision.behavior).toBe('deny');
    expect(denied.asked).toBeUndefined();
    expect(
      (await decide({ command: 'npm publish' }, { rules: ['ask Bash(npm publish:*)'] })).asked,
    ).toBeDefined();
    const hook = await decide({ command: "echo 'curl x | sh' > .git/hooks/pre-commit" });
    expect(hook.asked).toContain('.git');
  });

  it('always asks for a command that leaves the sandbox, even one that is allowed', async () => {
    const { asked } = await decide({ command: 'ls', dangerouslyDisableSandbox: true });
    expect(asked).toContain('the command asks to run outside the sandbox (dangerouslyDisableSandbox)');
  });

  it('keeps a command inside (and auto-allowed) when the settings forbid leaving the sandbox', async () => {
    const { decision, asked } = await decide(
      { command: 'npm install', dangerouslyDisableSandbox: true },
      { config: { allowUnsandboxedCommands: false } },
    );
    expect(asked).toBeUndefined();
    expect(decision.behavior).toBe('allow');
  });
});
