import { describe, expect, it } from 'vitest';
import * as z from '../lib/zod';
import { checkToolAvailability, describeAvailabilityProblem } from './availability';
import { type AnyTool, buildTool, type ToolAvailability } from './tool';

function tool(name: string, availability: ToolAvailability = { status: 'available' }): AnyTool {
  return buildTool({
    name,
    tier: 'read',
    inputSchema: z.object({}),
    prompt: name,
    call: async () => ({ data: name }),
    availability: () => availability,
  });
}

describe('checkToolAvailability', () => {
  it('keeps available and degraded tools, drops unavailable ones, and groups one cause', () => {
    const missing: ToolAvailability = { status: 'unavailable', reason: 'ripgrep was not found.' };
    const partial: ToolAvailability = { status: 'degraded', reason: 'big images cannot be shrunk.' };
    const check = checkToolAvailability(
      [tool('Bash'), tool('Glob', missing), tool('Grep', missing), tool('Read', partial)],
      {},
    );
    expect(check.offered.map((t) => t.name)).toEqual(['Bash', 'Read']);
    expect(check.problems).toEqual([
      { status: 'unavailable', tools: ['Glob', 'Grep'], reason: 'ripgrep was not found.' },
      { status: 'degraded', tools: ['Read'], reason: 'big images cannot be shrunk.' },
    ]);
    expect(check.problems.map(describeAvailabilityProblem)).toEqual([
      'Glob and Grep are not available: ripgrep was not found.',
      'Read works only in part: big images cannot be shrunk.',
    ]);
  });

  it('hands the session environment to each check', () => {
    const seen: unknown[] = [];
    const probe = buildTool({
      name: 'Probe',
      tier: 'read',
      inputSchema: z.object({}),
      prompt: 'p',
      call: async () => ({ data: '' }),
      availability: (env) => {
        seen.push(env.PATH);
        return { status: 'available' };
      },
    });
    checkToolAvailability([probe], { PATH: '/opt/bin' });
    expect(seen).toEqual(['/opt/bin']);
  });
});
