/**
 * The commands that change which conversation is running: /clear, /compact, /resume and /exit.
 * Each only says what should happen; the UI does it (it owns the engine and the screen).
 */
import { findSessionFile, SessionResolveError } from '../../session/session-match';
import type { LocalCommand, UiCommand } from '../types';

export const clearCommand: LocalCommand = {
  kind: 'local',
  name: 'clear',
  aliases: ['reset', 'new'],
  description: 'Start a new conversation (the current one stays resumable)',
  run: async () => ({ kind: 'clear' }),
};

export const compactCommand: LocalCommand = {
  kind: 'local',
  headless: true,
  name: 'compact',
  description: 'Summarize the conversation to free context; optional instructions say what to keep',
  argumentHint: '[instructions]',
  run: async (args) => (args === '' ? { kind: 'compact' } : { kind: 'compact', instructions: args }),
};

export const exitCommand: LocalCommand = {
  kind: 'local',
  name: 'exit',
  aliases: ['quit'],
  description: 'Leave Yoke (prints how to resume this session)',
  run: async () => ({ kind: 'exit' }),
};

// A picker without an id: it needs the screen.
export const resumeCommand: UiCommand = {
  kind: 'ui',
  name: 'resume',
  aliases: ['continue'],
  description: "Resume one of this project's sessions (a picker, or by id)",
  argumentHint: '[session id]',
  async run(args, host) {
    if (args === '') return { kind: 'pick-session' };
    try {
      const file = await findSessionFile(host.env, host.cwd, args);
      if (file.sessionId === host.sessionId) return { kind: 'text', text: 'That is the session you are in.' };
      return { kind: 'resume', sessionId: file.sessionId };
    } catch (error) {
      if (error instanceof SessionResolveError) return { kind: 'text', text: error.message };
      throw error;
    }
  },
};
