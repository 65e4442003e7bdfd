import { describe, expect, it } from 'vitest';
import { builtinCommands, createSessionCommands } from './builtin';
import { createCommandRegistry, parseCommandLine } from './registry';
import type { LocalCommand } from './types';

const command = (name: string, aliases?: string[]): LocalCommand => ({
  name,
  ...(aliases ? { aliases } : {}),
  description: `the ${name} command`,
  run: async () => ({ kind: 'none' }),
});

describe('command registry', () => {
  it('holds the built-in commands the issue lists', () => {
    const names = createSessionCommands()
      .list()
      .map((c) => c.name)
      .sort();
    expect(names).toEqual(
      [
        'clear',
        'compact',
        'context',
        'cost',
        'doctor',
        'exit',
        'help',
        'init',
        'mcp',
        'memory',
        'model',
        'permissions',
        'reload-plugins',
        'resume',
        'sandbox',
        'status',
        'tasks',
      ].sort(),
    );
  });

  it('is a value per session: registering in one leaves another untouched', () => {
    const a = createSessionCommands();
    const b = createSessionCommands();
    a.register(command('deploy'));
    expect(a.find('deploy')?.name).toBe('deploy');
    expect(b.find('deploy')).toBeUndefined();
  });

  it('finds by name or alias, with or without the slash, in any case', () => {
    const registry = createSessionCommands();
    expect(registry.find('/EXIT')?.name).toBe('exit');
    expect(registry.find('quit')?.name).toBe('exit');
    expect(registry.find('reset')?.name).toBe('clear');
    expect(registry.find('nope')).toBeUndefined();
  });

  it('completes a prefix, names before aliases, alphabetically', () => {
    const registry = createSessionCommands();
    expect(registry.complete('/c').map((c) => c.name)).toEqual([
      'clear',
      'compact',
      'context',
      'cost',
      'resume',
    ]);
    expect(registry.complete('co').map((c) => c.name)).toEqual(['compact', 'context', 'cost', 'resume']);
    expect(registry.complete('').length).toBe(builtinCommands().length);
    expect(registry.complete('zz')).toEqual([]);
  });

  it('refuses a taken name or alias and a name that cannot be typed', () => {
    const registry = createCommandRegistry([command('deploy', ['ship'])]);
    expect(() => registry.register(command('ship'))).toThrow('"/ship": it is already taken by /deploy');
    expect(() => registry.register(command('other', ['deploy']))).toThrow('already taken by /deploy');
    expect(() => registry.register(command('has space'))).toThrow('a command name uses letters');
    expect(() => registry.register(command('x', ['x']))).toThrow('its name and aliases repeat');
    expect(registry.list().map((c) => c.name)).toEqual(['deploy']);
  });
});

describe('parseCommandLine', () => {
  it('splits the name and the trimmed arguments, keeping newlines inside them', () => {
    expect(parseCommandLine('/compact keep the test list\n and the plan ')).toEqual({
      name: 'compact',
      args: 'keep the test list\n and the plan',
    });
    expect(parseCommandLine('  /help')).toEqual({ name: 'help', args: '' });
  });

  it('is not a command without the leading slash or with a path', () => {
    expect(parseCommandLine('help')).toBeUndefined();
    expect(parseCommandLine('/usr/bin/env')).toBeUndefined();
    expect(parseCommandLine('/')).toBeUndefined();
  });
});
