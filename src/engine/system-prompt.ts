/**
 * Builds Yoke's system prompt: a stable identity-and-rules part (cached) followed by the
 * environment, which changes per session. A custom prompt replaces the stable part; an append
 * prompt goes last.
 */
import type { SystemPart } from '../model/types';

export type EnvironmentFacts = {
  cwd: string;
  platform: string;
  osVersion?: string;
  shell?: string;
  date: string;
  isGitRepo: boolean;
  gitStatus?: string;
  model: string;
  additionalDirectories?: readonly string[];
};

export type SystemPromptOptions = {
  environment: EnvironmentFacts;
  /** Names of the tools in the pool, to tailor the guidance. */
  toolNames: readonly string[];
  customSystemPrompt?: string;
  appendSystemPrompt?: string;
  /** Memory files (AGENTS.md, CLAUDE.md, …) with their paths, already loaded. */
  memory?: readonly { path: string; content: string }[];
};

const IDENTITY = `You are Yoke, a coding agent working in the user's terminal. You read, change, run and debug code in the user's project with the tools you are given, and you answer questions about it.`;

const RULES = `# How to work
- Do what was asked: no more, no less. Prefer editing existing files to creating new ones; never create documentation files unless asked.
- Look before you change: read the relevant code, follow the project's conventions, libraries and style.
- Keep the user's work safe. Never discard uncommitted changes, force-push, or delete files you did not create unless the user asked for exactly that.
- When you run commands, explain briefly what a command that changes things will do before running it.
- If a tool call is denied, do not retry the same call; adjust or ask the user.
- Check your work: run the project's tests, type-checker or linter when they exist and the change warrants it.
- Be concise. Answer in plain text suitable for a terminal; refer to code as path:line.`;

function toolGuidance(toolNames: readonly string[]): string | undefined {
  const has = (name: string) => toolNames.includes(name);
  const lines: string[] = [];
  if (has('Read')) lines.push('- Read files with Read, not with cat/head/tail in Bash.');
  if (has('Edit') || has('Write'))
    lines.push('- Change files with Edit (or Write for new files); Read a file before you edit it.');
  if (has('Grep') || has('Glob'))
    lines.push('- Search with Grep (contents) and Glob (file names) rather than grep/find in Bash.');
  if (has('Bash'))
    lines.push('- Use Bash for builds, tests, git and other commands; quote paths with spaces.');
  if (has('TodoWrite'))
    lines.push('- For work with several steps, keep a task list with TodoWrite and update it as you go.');
  lines.push(
    '- Independent tool calls can be made together in one response; they run in parallel when they only read.',
  );
  return lines.length > 0 ? `# Tools\n${lines.join('\n')}` : undefined;
}

function environmentSection(env: EnvironmentFacts): string {
  const lines = [
    `Working directory: ${env.cwd}`,
    `Is a git repository: ${env.isGitRepo ? 'yes' : 'no'}`,
    `Platform: ${env.platform}${env.osVersion ? ` (${env.osVersion})` : ''}`,
    `Today's date: ${env.date}`,
    `Model: ${env.model}`,
  ];
  if (env.shell) lines.push(`Shell: ${env.shell}`);
  if (env.additionalDirectories && env.additionalDirectories.length > 0)
    lines.push(`Additional directories you may work in: ${env.additionalDirectories.join(', ')}`);
  let text = `# Environment\n${lines.join('\n')}`;
  if (env.gitStatus)
    text += `\n\n# Git status at the start of the session (it does not update)\n${env.gitStatus}`;
  return text;
}

function memorySection(memory: readonly { path: string; content: string }[]): string | undefined {
  if (memory.length === 0) return undefined;
  const files = memory.map((m) => `Contents of ${m.path}:\n\n${m.content.trim()}`).join('\n\n');
  return `# Project and user instructions\nThese instructions come from the user's memory files. Follow them; they override defaults above.\n\n${files}`;
}

export function buildSystemPrompt(options: SystemPromptOptions): SystemPart[] {
  const parts: SystemPart[] = [];
  if (options.customSystemPrompt !== undefined) {
    parts.push({ text: options.customSystemPrompt, cacheBreakpoint: true });
  } else {
    const guidance = toolGuidance(options.toolNames);
    parts.push({ text: [IDENTITY, RULES, guidance].filter(Boolean).join('\n\n'), cacheBreakpoint: true });
  }
  const memory = memorySection(options.memory ?? []);
  if (memory) parts.push({ text: memory });
  parts.push({ text: environmentSection(options.environment) });
  if (options.appendSystemPrompt) parts.push({ text: options.appendSystemPrompt });
  return parts.filter((p) => p.text.length > 0);
}
