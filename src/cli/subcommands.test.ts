import { describe, expect, it } from 'vitest';
import { runSubcommand, subcommandTypo } from './subcommands';

const context = { cwd: '/nowhere', env: { YOKE_HOME: '/nowhere/home' } };

describe('subcommandTypo', () => {
  it('suggests the subcommand a near miss meant', () => {
    expect(subcommandTypo(['sesions', 'list'])?.message).toBe(
      'unknown command "sesions"; did you mean `yoke sessions`?',
    );
    expect(subcommandTypo(['permisions'])?.message).toContain('`yoke permissions`');
  });

  it('leaves prompts alone: headless runs, sentences and words far from every command', () => {
    expect(subcommandTypo(['session', '-p'])).toBeUndefined();
    expect(subcommandTypo(['fix the sessions bug'])).toBeUndefined();
    expect(subcommandTypo(['hello'])).toBeUndefined();
    expect(subcommandTypo(['--verbose', 'sesions'])).toBeUndefined();
  });
});

describe('runSubcommand', () => {
  it('suggests the verb a near miss meant', async () => {
    await expect(runSubcommand(['sessions', 'lst'], context)).rejects.toThrow(
      'unknown command "sessions lst"; did you mean `yoke sessions list`?',
    );
    await expect(runSubcommand(['permissions', 'remov', 'Bash'], context)).rejects.toThrow(
      '`yoke permissions remove`',
    );
  });

  it('shows the usage for a verb with nothing near it, or wrong arguments', async () => {
    await expect(runSubcommand(['permissions'], context)).rejects.toThrow(
      'usage: yoke permissions list | yoke permissions remove <rule>',
    );
    await expect(runSubcommand(['sessions', 'list', '--everything'], context)).rejects.toThrow(
      'usage: yoke sessions [list] [--all]',
    );
  });
});
