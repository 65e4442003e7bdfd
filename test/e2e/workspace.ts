/**
 * The usual set-up of an e2e test file: one mock model server, one Yoke home and one project
 * folder, made before the file's tests and closed after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { mockEnv, type RunResult, runYoke, tempProject } from './helpers';

export type Workspace = {
  readonly server: MockServer;
  readonly home: string;
  readonly cwd: string;
  /** The next model reply is this text. */
  answer(text?: string): void;
  /** Runs the built CLI in the project (or `dir`) against the mock server. */
  yoke(args: string[], dir?: string): Promise<RunResult>;
};

export function useWorkspace(): Workspace {
  let state: { server: MockServer; home: string; cwd: string } | undefined;
  const get = () => {
    if (!state) throw new Error('the workspace is made in beforeAll');
    return state;
  };
  beforeAll(async () => {
    state = {
      server: await startMockServer({ scenario: [] }),
      home: await tempProject('yoke-home-'),
      cwd: await tempProject(),
    };
  });
  afterAll(async () => {
    await state?.server.close();
  });
  return {
    get server() {
      return get().server;
    },
    get home() {
      return get().home;
    },
    get cwd() {
      return get().cwd;
    },
    answer: (text = 'ok') => get().server.reset([{ reply: { content: [{ type: 'text', text }] } }]),
    yoke: (args, dir) => runYoke(args, { cwd: dir ?? get().cwd, env: mockEnv(get().server.url, get().home) }),
  };
}
