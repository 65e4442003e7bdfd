/**
 * A prompt command run with its arguments: the body read (a file's, a bundled text, an MCP
 * server's prompt), its arguments and paths substituted, its `!` commands run and its `@file`
 * mentions attached. What the model receives follows Claude Code (compat-surface §5): one text
 * block naming the command and its arguments, then the expanded body (a skill's prefixed with its
 * folder, where its supporting files are).
 *
 * Who wrote the command decides what it may do. A project's or a plugin's file is the
 * repository's, so untrusted (ARCHITECTURE principle 9): its `@file` mentions must stay inside
 * the project, and its `allowed-tools` widen nothing unless the folder is trusted. An MCP prompt
 * is the server's text: it is neither substituted nor run.
 */
import { realpathSync } from 'node:fs';
import { expandMentions, findMentions } from '../interactive/mentions';
import { isWithin } from '../lib/path-within';
import type { UserContentBlock } from '../model/types';
import { resolveToolPath } from '../tools/builtin/shared/paths';
import type { ToolUseContext } from '../tools/context';
import { substituteArguments } from './arguments';
import { commandHeader } from './command-header';
import { ExpansionError } from './expansion-error';
import { readBody } from './frontmatter';
import { expandShellCommands, type ShellRun } from './shell-expansion';
import type { McpPromptFetch, PromptCommandSpec } from './types';

export type ExpansionDeps = {
  sessionId: string;
  projectRoot: string;
  /** The model's Skill call passes arguments the model wrote: their mentions stay inside the project. */
  invokedBy: 'user' | 'model';
  /** Runs one `!` command (shell-runner.ts); absent when the settings disable them. */
  runShell?: ShellRun;
  /** For `@file` mentions: the Read tool's context (its deny rules hold). */
  context: ToolUseContext;
  /** An MCP prompt's text for these arguments. */
  mcpPrompt?: McpPromptFetch;
};

export type Expansion = {
  /** The blocks of the user turn: the command line, then the body. */
  blocks: UserContentBlock[];
  /** The expanded body alone (what compaction keeps of an active skill). */
  body: string;
  /** Attached files' contents, as meta messages after the turn. */
  attachments: UserContentBlock[][];
  /** Mentions that were not attached, one line each. */
  problems: string[];
};

const writtenByRepository = (spec: PromptCommandSpec) =>
  spec.source === 'project' || spec.source === 'plugin';

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

async function rawBody(spec: PromptCommandSpec, args: string, deps: ExpansionDeps): Promise<string> {
  const { body } = spec;
  if (body.kind === 'text') return body.text;
  if (body.kind === 'file') return readBody(body.path, body.offset);
  if (!deps.mcpPrompt) throw new ExpansionError(`/${spec.name}: its MCP server is not connected.`);
  const words = args === '' ? [] : args.split(/\s+/);
  const named: Record<string, string> = {};
  body.argumentNames.forEach((name, i) => {
    const value = i === body.argumentNames.length - 1 ? words.slice(i).join(' ') : words[i];
    if (value !== undefined && value !== '') named[name] = value;
  });
  return deps.mcpPrompt(body.server, body.prompt, named, deps.context.abortSignal);
}

export async function expandPromptCommand(
  spec: PromptCommandSpec,
  args: string,
  deps: ExpansionDeps,
): Promise<Expansion> {
  const raw = await rawBody(spec, args, deps);
  let body = raw;
  const problems: string[] = [];
  const attachments: UserContentBlock[][] = [];
  if (spec.body.kind !== 'mcp') {
    body = substituteArguments(raw, {
      args,
      argumentNames: spec.argumentNames,
      sessionId: deps.sessionId,
      projectDir: deps.projectRoot,
      ...(spec.skillDir !== undefined ? { skillDir: spec.skillDir } : {}),
      ...(spec.pluginRoot !== undefined ? { pluginRoot: spec.pluginRoot } : {}),
    });
    // Mentions are looked for before the commands run: their output is data, not instructions.
    const found = findMentions(body);
    if (deps.runShell) body = await expandShellCommands(body, deps.runShell);
    const confined = writtenByRepository(spec) || deps.invokedBy === 'model';
    const mentions = found.filter((mention) => {
      if (!confined) return true;
      const path = realOrSelf(resolveToolPath(mention.path, deps.context.cwd));
      if (isWithin(path, realOrSelf(deps.projectRoot))) return true;
      problems.push(
        `${mention.text} in /${spec.name} was not attached: ${
          deps.invokedBy === 'model' ? 'a skill the model runs' : "a project's command"
        } may only attach files inside the project.`,
      );
      return false;
    });
    if (mentions.length > 0) {
      const expansion = await expandMentions(mentions.map((m) => m.text).join(' '), deps.context);
      problems.push(...expansion.problems);
      for (const message of expansion.messages) {
        const content = message.message.content;
        attachments.push(typeof content === 'string' ? [{ type: 'text', text: content }] : content);
      }
    }
  }
  const shown = spec.skillDir
    ? `Base directory for this skill: ${spec.skillDir}\n\n${body.trim()}`
    : body.trim();
  return {
    blocks: [
      { type: 'text', text: commandHeader(spec, args) },
      { type: 'text', text: shown },
    ],
    body: shown,
    attachments,
    problems,
  };
}
