/** /sandbox: the shell sandbox's status, and `/sandbox on|off` to switch it for this session. */
import { sandboxStatusLines } from '../../sandbox/status';
import type { LocalCommand } from '../types';

const USAGE = 'Usage: /sandbox (status), /sandbox on, /sandbox off';

export const sandboxCommand: LocalCommand = {
  name: 'sandbox',
  description: 'Show the shell sandbox (writable paths, network, exclusions), or switch it on or off',
  argumentHint: '[on|off]',
  async run(args, host) {
    const manager = host.sandbox();
    if (!manager)
      return {
        kind: 'text',
        text: 'This session has no shell sandbox: Bash commands go through the permission prompts.',
      };
    const word = args.trim().toLowerCase();
    if (word === '' || word === 'status')
      return { kind: 'text', text: sandboxStatusLines(manager, host.projectRoot).join('\n') };
    if (word !== 'on' && word !== 'off')
      return { kind: 'text', text: `Unknown argument "${args.trim()}". ${USAGE}` };
    const result = await manager.switchTo(word === 'on');
    if (!result.ok) return { kind: 'text', text: `The sandbox stays on: ${result.why}.` };
    if (word === 'off')
      return {
        kind: 'text',
        text: 'Sandbox off for this session: Bash commands run outside it and go through the permission prompts.',
      };
    if (result.state.kind === 'unavailable')
      return {
        kind: 'text',
        text: `The sandbox cannot start: ${result.state.reason}. Commands go through the permission prompts.`,
      };
    return {
      kind: 'text',
      text: `Sandbox on for this session.\n${sandboxStatusLines(manager, host.projectRoot).slice(1).join('\n')}`,
    };
  },
};
