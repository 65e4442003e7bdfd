/**
 * Facts about the machine and the repository for the system prompt, gathered once per session.
 * Git is asked with a short timeout so a huge or broken repository never delays the first turn.
 */
import { execFile } from 'node:child_process';
import { release } from 'node:os';
import type { EnvironmentFacts } from './system-prompt';

const GIT_TIMEOUT_MS = 2_000;
const MAX_STATUS_CHARS = 2_000;

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 1 << 20 }, (error, stdout) => {
      resolve(error ? undefined : stdout.trim());
    });
  });
}

export async function gatherGitStatus(cwd: string): Promise<{ isGitRepo: boolean; gitStatus?: string }> {
  const inside = await git(cwd, ['rev-parse', '--is-inside-work-tree']);
  if (inside !== 'true') return { isGitRepo: false };
  const [branch, status, log] = await Promise.all([
    git(cwd, ['branch', '--show-current']),
    git(cwd, ['status', '--short']),
    git(cwd, ['log', '--oneline', '-n', '5']),
  ]);
  let statusText = status ?? '';
  if (statusText.length > MAX_STATUS_CHARS) {
    statusText = `${statusText.slice(0, MAX_STATUS_CHARS)}\n… (truncated; run git status for the full list)`;
  }
  const parts = [`Current branch: ${branch || '(detached HEAD)'}`, `Status:\n${statusText || '(clean)'}`];
  if (log) parts.push(`Recent commits:\n${log}`);
  return { isGitRepo: true, gitStatus: parts.join('\n\n') };
}

export async function gatherEnvironment(
  cwd: string,
  model: string,
  additionalDirectories: readonly string[] = [],
  now: Date = new Date(),
): Promise<EnvironmentFacts> {
  const gitFacts = await gatherGitStatus(cwd);
  return {
    cwd,
    platform: process.platform,
    osVersion: release(),
    shell: process.env.SHELL,
    date: now.toISOString().slice(0, 10),
    model,
    additionalDirectories,
    ...gitFacts,
  };
}
