import { describe, expect, it } from 'vitest';
import { everyBuiltinTool } from './session-builtins';

describe('everyBuiltinTool (the build converts their schemas, keyed by name)', () => {
  const tools = everyBuiltinTool();

  it('has each name once, the agent layer included', () => {
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['Agent', 'EnterWorktree', 'ExitWorktree', 'SendMessage', 'Bash']),
    );
  });

  it('gives every tool an object schema the build can serialise', () => {
    for (const tool of tools) {
      expect(tool.inputJsonSchema.type, tool.name).toBe('object');
      expect(JSON.parse(JSON.stringify(tool.inputJsonSchema)), tool.name).toEqual(tool.inputJsonSchema);
    }
  });
});
