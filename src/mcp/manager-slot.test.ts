import { describe, expect, it } from 'vitest';
import type { McpManager } from './manager';
import { McpManagerSlot } from './manager-slot';

/** A stand-in manager: the slot only hands it around and closes it. */
function fakeManager(name: string) {
  const made = {
    name,
    closed: 0,
    close: async () => {
      made.closed += 1;
    },
  };
  return made as typeof made & McpManager;
}

describe('McpManagerSlot', () => {
  it('makes no manager until asked; the one made is handed to every reader before ensure resolves, once', async () => {
    let makes = 0;
    const slot = new McpManagerSlot(undefined, async () => fakeManager(`m${++makes}`));
    const seen: string[] = [];
    await slot.whenPresent((m) => void seen.push(`pool:${(m as unknown as { name: string }).name}`));
    expect(slot.manager).toBeUndefined();
    expect(makes).toBe(0);

    const [a, b] = await Promise.all([slot.ensure(), slot.ensure()]);
    expect(a).toBe(b);
    expect(makes).toBe(1);
    expect(slot.manager).toBe(a);
    expect(seen).toEqual(['pool:m1']);
    // A reader that comes later gets the manager at once.
    await slot.whenPresent((m) => void seen.push(`late:${(m as unknown as { name: string }).name}`));
    expect(seen).toEqual(['pool:m1', 'late:m1']);
    expect(await slot.ensure()).toBe(a);
  });

  it('a session that started with a manager keeps it: ensure makes none', async () => {
    const start = fakeManager('start');
    const slot = new McpManagerSlot(start, async () => {
      throw new Error('must not be made');
    });
    expect(await slot.ensure()).toBe(start);
  });

  it('a reader that cannot take the new manager: it is closed, ensure fails with the reason, and the next try starts over', async () => {
    const made: ReturnType<typeof fakeManager>[] = [];
    const slot = new McpManagerSlot(undefined, async () => {
      const m = fakeManager(`m${made.length + 1}`);
      made.push(m);
      return m;
    });
    let fail = true;
    await slot.whenPresent(async () => {
      if (fail) throw new Error('the MCP tools could not be loaded');
    });
    await expect(slot.ensure()).rejects.toThrow('the MCP tools could not be loaded');
    expect(slot.manager).toBeUndefined();
    expect(made[0]?.closed).toBe(1);
    fail = false;
    expect(await slot.ensure()).toBe(made[1]);
  });
});
