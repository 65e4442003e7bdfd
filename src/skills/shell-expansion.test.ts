import { describe, expect, it } from 'vitest';
import { expandShellCommands, shellCommandsIn } from './shell-expansion';

describe('!`command` in a body', () => {
  it('runs commands at a line start or after whitespace, and fenced ```! blocks, in order', async () => {
    const body = [
      'Status: !`git status`',
      '!`pwd`',
      'a link [x](!`not-run`) and word!`nor-this`',
      '```!',
      'ls -a',
      '```',
      'end',
    ].join('\n');
    const ran: string[] = [];
    const out = await expandShellCommands(body, async (command) => {
      ran.push(command);
      return `<${command}>\n`;
    });
    expect(ran).toEqual(['ls -a', 'git status', 'pwd']);
    expect(out).toBe(
      ['Status: <git status>', '<pwd>', 'a link [x](!`not-run`) and word!`nor-this`', '<ls -a>', 'end'].join(
        '\n',
      ),
    );
    expect(shellCommandsIn(body)).toEqual(['ls -a', 'git status', 'pwd']);
  });

  it('fails the whole expansion when one command is refused', async () => {
    await expect(
      expandShellCommands('!`echo ok` then !`rm -rf x`', async (command) => {
        if (command.startsWith('rm')) throw new Error('refused');
        return 'ok';
      }),
    ).rejects.toThrow('refused');
  });
});
