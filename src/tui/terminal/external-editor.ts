/**
 * Ctrl+G: the prompt in $VISUAL / $EDITOR. The terminal is handed over (raw mode off) while the
 * editor runs, and the edited text comes back from a private temp file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type EditorOutcome = { text: string } | { problem: string };

export function editorCommand(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const command = env.VISUAL?.trim() || env.EDITOR?.trim();
  return command || undefined;
}

function runEditor(
  command: string,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  handOver: { before(): void; after(): void },
) {
  handOver.before();
  try {
    // Through the shell: $EDITOR is often a command with arguments ("code --wait").
    return spawnSync('/bin/sh', ['-c', `${command} "$1"`, 'editor', file], { stdio: 'inherit', env });
  } finally {
    handOver.after();
  }
}

export function editInEditor(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  handOver: { before(): void; after(): void },
): EditorOutcome {
  const command = editorCommand(env);
  if (!command) return { problem: 'Set $EDITOR (or $VISUAL) to edit the prompt in an editor.' };
  const dir = mkdtempSync(join(tmpdir(), 'yoke-prompt-'));
  const file = join(dir, 'prompt.md');
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const result = runEditor(command, file, env, handOver);
    if (result.error) return { problem: `Could not run ${command}: ${result.error.message}` };
    if (result.status !== 0)
      return { problem: `${command} exited with status ${result.status}; the prompt is unchanged.` };
    return { text: readFileSync(file, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** /memory: a file opened in the editor, the terminal handed over while it runs. */
export function openFileInEditor(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  handOver: { before(): void; after(): void },
): { opened: true } | { opened: false; reason: string } {
  const command = editorCommand(env);
  if (!command) return { opened: false, reason: 'Set $EDITOR (or $VISUAL) to open files in an editor.' };
  const result = runEditor(command, path, env, handOver);
  if (result.error) return { opened: false, reason: `Could not run ${command}: ${result.error.message}` };
  return { opened: true };
}
