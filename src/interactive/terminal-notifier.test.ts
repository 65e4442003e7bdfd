/** Notifications: the channel per terminal, the bytes, sanitizing, and the Notification hook. */
import { describe, expect, it } from 'vitest';
import { type HookRunner, noopHooks } from '../hooks/types';
import {
  notificationBytes,
  notifyChannel,
  sanitizeNotification,
  TerminalNotifier,
} from './terminal-notifier';

describe('notify channel', () => {
  it('picks OSC 9, OSC 99 or the bell from the terminal', () => {
    expect(notifyChannel({ TERM_PROGRAM: 'iTerm.app' })).toBe('osc9');
    expect(notifyChannel({ TERM_PROGRAM: 'WezTerm' })).toBe('osc9');
    expect(notifyChannel({ TERM_PROGRAM: 'ghostty' })).toBe('osc9');
    expect(notifyChannel({ TERM: 'xterm-kitty' })).toBe('osc99');
    expect(notifyChannel({ TERM_PROGRAM: 'Apple_Terminal', TERM: 'xterm-256color' })).toBe('bell');
    expect(notifyChannel({ TERM: 'dumb' })).toBe('bell');
  });

  it('writes the sequences, wrapped for tmux when inside it', () => {
    expect(notificationBytes('osc9', 'Turn done', {})).toBe('\u001b]9;Turn done\u0007\u0007');
    expect(notificationBytes('osc99', 'Turn done', {})).toBe('\u001b]99;;Turn done\u001b\\\u0007');
    expect(notificationBytes('bell', 'Turn done', {})).toBe('\u0007');
    expect(notificationBytes('osc9', 'x', { TMUX: '/tmp/tmux-0/default,1,0' })).toBe(
      '\u001bPtmux;\u001b\u001b]9;x\u0007\u001b\\\u0007',
    );
  });

  it('a message cannot end the sequence and start its own', () => {
    const hostile = 'Allow Bash(rm)?\u0007\u001b]52;c;ZXZpbA==\u0007\nnext';
    expect(sanitizeNotification(hostile)).toBe('Allow Bash(rm)? ]52;c;ZXZpbA== next');
    const bytes = notificationBytes('osc9', hostile, {});
    expect(bytes.match(/\u001b/g)).toHaveLength(1);
  });
});

describe('TerminalNotifier', () => {
  function setup(env: Record<string, string> = { TERM_PROGRAM: 'iTerm.app' }) {
    const written: string[] = [];
    const hooks: { event: string; payload: unknown }[] = [];
    const runner: HookRunner = {
      ...noopHooks,
      notify: async (event, payload) => {
        hooks.push({ event, payload });
      },
    };
    const notifier = new TerminalNotifier({
      env,
      write: (b) => written.push(b),
      hooks: runner,
      signal: new AbortController().signal,
    });
    return { notifier, written, hooks };
  }

  it('rings and notifies when unfocused, and fires the Notification hook', () => {
    const { notifier, written, hooks } = setup();
    notifier.waiting('permission_prompt', 'Yoke needs your permission to use Bash', false);
    expect(written).toEqual(['\u001b]9;Yoke needs your permission to use Bash\u0007\u0007']);
    expect(hooks).toEqual([
      {
        event: 'Notification',
        payload: {
          message: 'Yoke needs your permission to use Bash',
          notification_type: 'permission_prompt',
          title: 'Yoke',
        },
      },
    ]);
  });

  it('stays quiet in a focused terminal, but the hook still fires', () => {
    const { notifier, written, hooks } = setup();
    notifier.waiting('turn_end', 'Yoke is waiting for your input', true);
    expect(written).toEqual([]);
    expect(hooks).toMatchObject([{ payload: { notification_type: 'idle_prompt' } }]);
  });

  it('a terminal that does not report focus counts as unfocused', () => {
    const { notifier, written } = setup({ TERM: 'xterm-256color' });
    notifier.waiting('turn_end', 'done', undefined);
    expect(written).toEqual(['\u0007']);
  });

  it('a failing hook never reaches the caller', async () => {
    const notifier = new TerminalNotifier({
      env: {},
      write: () => {},
      hooks: { ...noopHooks, notify: async () => Promise.reject(new Error('hook crashed')) },
      signal: new AbortController().signal,
    });
    expect(() => notifier.waiting('turn_end', 'done', false)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
  });
});
