/**
 * A permission question in the line mode: what will run, why it needs approval, any warning, and
 * the same answers as the dialog, chosen by number (or y/n). An empty or unclear answer denies:
 * the safe answer is the one nobody typed by accident. Any other text denies and tells the model
 * that text, as "No, and tell the model what to do instead" does.
 */
import { permissionChoices } from '../session/permission-choices';
import type { PendingPermission } from '../session/repl-session';
import { printable } from '../terminal/terminal-text';
import { splitPermissionMessage } from '../views/permission-message';
import { toolInputSummary } from '../views/tool-summary';
import type { LineInput } from './line-input';

export async function askPermission(
  pending: PendingPermission,
  input: Pick<LineInput, 'ask'>,
  write: (text: string) => void,
  cwd: string,
): Promise<void> {
  const { request } = pending;
  const choices = permissionChoices(pending);
  const parts = splitPermissionMessage(request.message);
  const command = typeof request.input.command === 'string' ? request.input.command : undefined;
  const lines = [
    '',
    `Permission needed: ${request.toolName}${command ? ' command' : ''}`,
    `  ${command ?? toolInputSummary(request.toolName, request.input, cwd, 200)}`,
    ...parts.reasons.map((reason) => `  needs approval: ${reason}`),
    ...parts.other.map((line) => `  ${line}`),
    ...parts.warnings.map((warning) => `  WARNING: ${warning}`),
    parts.question || `Allow ${request.toolName}?`,
    ...choices.map((choice, i) => `  ${i + 1}. ${choice.label}${choice.detail ? ` (${choice.detail})` : ''}`),
  ];
  // The question quotes the model's call: its control characters are shown, never obeyed.
  write(`${printable(lines.join('\n'))}\n`);
  const answer =
    (await input.ask(`Answer 1-${choices.length}, or type what the model should do instead: `))?.trim() ?? '';
  const deny = choices[choices.length - 2];
  const denyWithNote = choices[choices.length - 1];
  const chosen = /^y(es)?$/i.test(answer)
    ? choices[0]
    : /^\d$/.test(answer)
      ? choices[Number(answer) - 1]
      : undefined;
  let decision = deny?.decide();
  if (chosen?.needsNote) {
    const note = (await input.ask('Tell the model: '))?.trim() ?? '';
    decision = note ? chosen.decide(note) : deny?.decide();
  } else if (chosen) decision = chosen.decide();
  else if (answer !== '' && !/^(no?|\d+)$/i.test(answer)) decision = denyWithNote?.decide(answer);
  if (decision) pending.answer(decision);
  write(decision?.behavior === 'allow' ? '  allowed\n' : '  denied\n');
}
