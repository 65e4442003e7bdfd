/**
 * The session's memory files (CLAUDE.md, AGENTS.md and their imports), started as soon as the
 * settings are known so the reads overlap the model's set-up; with the Read deny rules they
 * honour, which the nested memory files found later use too. `--bare` loads none;
 * `--setting-sources` picks them too: user → the user's, project → the project's, local → *.local.md.
 */
import { homedir } from 'node:os';
import type { MemoryFile } from '../config/memory/memory-files';
import type { SettingsRule } from '../config/settings-merge';
import { type MemoryDenial, memoryReadDenial } from './session-memory-denials';
import type { Env } from './session-settings';
import type { SessionSetupOptions } from './session-types';

export function startMemoryLoad(input: {
  options: Pick<SessionSetupOptions, 'bare' | 'settingSources' | 'disallowedTools'>;
  settingsRules: readonly SettingsRule[];
  cwd: string;
  env: Env;
  trusted: boolean;
  memoryFiles: typeof import('../config/memory/memory-files');
  warn: (line: string) => void;
}): { loading: Promise<MemoryFile[]>; denied: MemoryDenial } {
  const { options, cwd, env } = input;
  const denied = memoryReadDenial({
    settingsRules: input.settingsRules,
    cliDisallowed: options.disallowedTools ?? [],
    cwd,
    home: env.HOME || homedir(),
  });
  const loading = options.bare
    ? Promise.resolve([])
    : input.memoryFiles.loadMemoryFiles({
        cwd,
        env,
        sources: options.settingSources,
        trusted: input.trusted,
        refused: input.warn,
        denied,
      });
  return { loading, denied };
}
