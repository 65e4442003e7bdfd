import { describe, expect, it } from 'vitest';
import { type HookRunner, noopHooks } from '../hooks/types';
import { makeContext } from '../tools/test-support';
import {
  callTool,
  echoTool,
  requestsOf,
  runQuery,
  text,
  toolResultsIn,
  transitionsOf,
} from './query-test-support';

describe('query: hooks', () => {
  it('ends with hook_stopped when a tool hook prevents continuation', async () => {
    const hooks: HookRunner = {
      ...noopHooks,
      postToolUse: async () => ({ preventContinuation: { stopReason: 'policy says stop' } }),
    };
    const { terminal, provider } = await runQuery([callTool('toolu_h'), text('unused')], {
      hooks,
      toolUseContext: makeContext([echoTool()], { hooks }),
    });
    expect(terminal).toMatchObject({ reason: 'hook_stopped', message: 'policy says stop', turnCount: 1 });
    expect(requestsOf(provider)).toHaveLength(1);
    expect(toolResultsIn(terminal.messages)).toHaveLength(1);
  });

  it('ends with stop_hook_prevented when the stop hook prevents continuation', async () => {
    const hooks: HookRunner = {
      ...noopHooks,
      stop: async () => ({ blockingErrors: [], preventContinuation: { stopReason: 'enough' } }),
    };
    const { terminal } = await runQuery([text('Finished.')], { hooks });
    expect(terminal).toMatchObject({ reason: 'stop_hook_prevented', message: 'enough' });
  });

  it('sends stop hook objections back to the model and marks the hook active', async () => {
    const inputs: boolean[] = [];
    const hooks: HookRunner = {
      ...noopHooks,
      stop: async ({ stopHookActive }) => {
        inputs.push(stopHookActive);
        return { blockingErrors: stopHookActive ? [] : ['Tests are failing.'] };
      },
    };
    const { events, terminal, provider } = await runQuery([text('Done.'), text('Fixed the tests.')], {
      hooks,
    });
    expect(terminal.reason).toBe('completed');
    expect(transitionsOf(events)).toEqual(['stop_hook_blocking']);
    expect(inputs).toEqual([false, true]);
    const second = requestsOf(provider)[1]!;
    expect(JSON.stringify(second.messages.at(-1))).toContain('Tests are failing.');
    expect(second.messages.at(-2)?.role).toBe('assistant');
  });
});

describe('query: a Stop hook that always blocks', () => {
  const alwaysBlocks = (inputs: boolean[]): HookRunner => ({
    ...noopHooks,
    stop: async ({ stopHookActive }) => {
      inputs.push(stopHookActive);
      return { blockingErrors: ['[./never-done.sh]: not done yet'] };
    },
  });

  it('sends the model back at most stopHookBlockCap times, then ends the turn saying why', async () => {
    const inputs: boolean[] = [];
    const replies = Array.from({ length: 4 }, (_, i) => text(`Attempt ${i}.`));
    const { events, terminal, provider } = await runQuery(replies, {
      hooks: alwaysBlocks(inputs),
      stopHookBlockCap: 3,
    });
    expect(requestsOf(provider)).toHaveLength(4);
    expect(transitionsOf(events)).toEqual(['stop_hook_blocking', 'stop_hook_blocking', 'stop_hook_blocking']);
    expect(inputs).toEqual([false, true, true, true]);
    expect(terminal.reason).toBe('stop_hook_prevented');
    expect(terminal.message).toBe(
      'Stop hooks blocked the end of this turn 4 times in a row; the turn ends anyway ' +
        '(at most 3 blocks per turn, settings key stopHookBlockCap). The last objection: [./never-done.sh]: not done yet',
    );
    const notice = terminal.messages.at(-1);
    expect(notice).toMatchObject({ type: 'system', subtype: 'stop_hook_feedback', level: 'warning' });
  });

  it('counts blocks across tool calls in the same turn, and defaults to 8', async () => {
    const inputs: boolean[] = [];
    const replies = Array.from({ length: 9 }, (_, i) => [
      callTool(`toolu_${i}`, { text: 'x' }),
      text('Done.'),
    ]).flat();
    const { terminal, provider } = await runQuery(replies, { hooks: alwaysBlocks(inputs) });
    expect(inputs).toHaveLength(9);
    expect(requestsOf(provider)).toHaveLength(18);
    expect(terminal.reason).toBe('stop_hook_prevented');
    expect(terminal.message).toContain('9 times in a row');
  });
});
