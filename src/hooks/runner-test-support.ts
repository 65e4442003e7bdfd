/**
 * Test helpers for the hook runner: real shell scripts in a temp folder and a runner whose
 * messages are recorded. Used only by the `*.test.ts` files beside it.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HooksSettings } from '../config/settings-schema';
import { CORPUS_TOOLS } from '../permissions/corpus-test-support';
import {
  createHookRunner,
  type HookMessageLevel,
  type HookRunnerOptions,
  type YokeHookRunner,
} from './runner';
import type { ToolHookInput } from './types';

export type HookTestBed = {
  dir: string;
  /** Writes an executable `sh` script and returns its path. */
  script(name: string, body: string): Promise<string>;
  runner(settingsHooks: HooksSettings, extra?: Partial<HookRunnerOptions>): YokeHookRunner;
  messages: { text: string; level: HookMessageLevel }[];
  cleanup(): Promise<void>;
};

export async function createHookTestBed(): Promise<HookTestBed> {
  const dir = await mkdtemp(join(tmpdir(), 'yoke-hooks-'));
  const messages: HookTestBed['messages'] = [];
  return {
    dir,
    messages,
    async script(name, body) {
      const path = join(dir, name);
      await writeFile(path, `#!/bin/sh\n${body}\n`);
      await chmod(path, 0o755);
      return path;
    },
    runner(settingsHooks, extra = {}) {
      return createHookRunner({
        settingsHooks,
        base: () => ({
          session_id: 'session-1',
          transcript_path: join(dir, 'session-1.jsonl'),
          cwd: dir,
          permission_mode: 'default',
        }),
        env: { PATH: process.env.PATH },
        onMessage: (text, level) => messages.push({ text, level }),
        ...extra,
      });
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** One matcher group of command hooks. */
export function commandGroup(matcher: string | undefined, commands: string[], timeout?: number) {
  return {
    ...(matcher === undefined ? {} : { matcher }),
    hooks: commands.map((command) => ({ type: 'command', command, ...(timeout ? { timeout } : {}) })),
  };
}

/** A call of the tool by that name, with the access the real tool declares (`none` for others). */
export const toolInput = (
  toolName = 'Bash',
  toolInput: Record<string, unknown> = { command: 'ls' },
): ToolHookInput => ({
  toolName,
  toolInput,
  toolUseId: 'toolu_1',
  access: CORPUS_TOOLS.find((tool) => tool.name === toolName)?.access ?? 'none',
});

export const never = () => new AbortController().signal;
