/** Test support: a background worker the test drives by hand, in place of runAgent. */
import { createUserMessage } from '../../session/messages';
import type { AgentInboxPrompt, AgentLauncher, AgentRunOutcome, AgentRunRequest } from './types';

const zero = () => ({ totalTokens: 0, toolUses: 0, costUsd: 0 });

/** A worker the test drives by hand: each run waits until the test ends it. */
export class ScriptedWorker {
  readonly runs: {
    request: AgentRunRequest;
    inbox: AgentInboxPrompt[];
    end(outcome?: Partial<AgentRunOutcome>): void;
  }[] = [];

  readonly launcher: AgentLauncher = (request) => {
    const inbox: AgentInboxPrompt[] = [];
    let end!: (outcome: AgentRunOutcome) => void;
    const done = new Promise<AgentRunOutcome>((resolve) => {
      end = resolve;
      request.signal.addEventListener('abort', () =>
        resolve({
          status: 'failed',
          finalText: '',
          error: 'aborted',
          messages: request.priorMessages,
          usage: zero(),
        }),
      );
    });
    this.runs.push({
      request,
      inbox,
      end: (outcome = {}) =>
        end({
          status: 'completed',
          finalText: `answer ${this.runs.length}`,
          messages: [...request.priorMessages, createUserMessage(request.prompt)],
          usage: { totalTokens: 100, toolUses: 2, costUsd: 0.01 },
          ...outcome,
        }),
    });
    return {
      inbox: { enqueue: (item) => inbox.push(item), takePrompts: () => inbox.splice(0) },
      done,
    };
  };

  get last() {
    const run = this.runs.at(-1);
    if (!run) throw new Error('no run started');
    return run;
  }
}
