/**
 * The permission question: what will run (the command and each part that needs approval, the
 * edit's diff, the path), any destructive warning, and the answers — allow once, allow always
 * (showing the exact rules it adds), deny, deny with a note to the model. It owns the keyboard
 * while open: nothing behind it sees a key.
 */
import { Box, Text, useStdout } from 'ink';
import { useMemo } from 'react';
import { withoutLastCharacter } from '../input/graphemes';
import { useKeys } from '../input/use-keys';
import { useRefState } from '../input/use-ref-state';
import { type PermissionChoice as Choice, permissionChoices } from '../session/permission-choices';
import type { PendingPermission } from '../session/repl-session';
import { printable } from '../terminal/terminal-text';
import { ChoiceList, DialogFrame } from './dialog-frame';
import { splitPermissionMessage } from './permission-message';
import { proposedHunks } from './proposed-diff';
import { useStyle } from './style-context';
import { renderHunks, toolInputSummary } from './tool-summary';

const MAX_DIFF_ROWS = 20;
/**
 * The rows around a diff: the dialog's own, the tool line and spinner above it, the input box
 * and status line below.
 */
const DIALOG_CHROME_ROWS = 20;

export function PermissionDialog({ pending, cwd }: { pending: PendingPermission; cwd: string }) {
  const style = useStyle();
  const rows = useStdout().stdout.rows;
  const [selectedRef, setSelected] = useRefState(0);
  const [noteRef, setNote] = useRefState<string | undefined>(undefined);
  const choices = permissionChoices(pending);
  const { request } = pending;

  useKeys((event) => {
    const note = noteRef.current;
    const selected = selectedRef.current;
    if (note !== undefined) {
      if (event.type === 'text' || event.type === 'paste') setNote(note + event.text.replace(/\n/g, ' '));
      else if (event.type === 'key' && event.name === 'backspace') setNote(withoutLastCharacter(note));
      else if (event.type === 'key' && event.name === 'escape') setNote(undefined);
      else if (event.type === 'key' && event.name === 'return' && note.trim()) {
        pending.answer((choices[choices.length - 1] as Choice).decide(note.trim()));
      }
      return true;
    }
    if (event.type === 'text' && /^[1-9]$/.test(event.text)) {
      const choice = choices[Number(event.text) - 1];
      if (choice?.needsNote) {
        // The list shows the choice being written, not the one the cursor was on.
        setSelected(Number(event.text) - 1);
        setNote('');
      } else if (choice) pending.answer(choice.decide());
      return true;
    }
    if (event.type !== 'key') return true;
    if (event.name === 'up' || (event.name === 'tab' && event.shift))
      setSelected((selected + choices.length - 1) % choices.length);
    else if (event.name === 'down' || event.name === 'tab') setSelected((selected + 1) % choices.length);
    else if (event.name === 'escape') pending.answer((choices[choices.length - 2] as Choice).decide());
    else if (event.name === 'return') {
      const choice = choices[selected] as Choice;
      if (choice.needsNote) setNote('');
      else pending.answer(choice.decide());
    }
    return true;
  });

  const note = noteRef.current;
  const selected = selectedRef.current;
  // The question quotes the call the model wrote: shown, never obeyed.
  const parts = splitPermissionMessage(printable(request.message));
  // The command as it will run, its control characters shown as pictures (terminal-text.ts).
  const command = typeof request.input.command === 'string' ? printable(request.input.command) : undefined;
  // Read once per question: the file as it is now against what the call would make of it.
  const hunks = useMemo(
    () =>
      ['Edit', 'MultiEdit', 'Write'].includes(request.toolName)
        ? proposedHunks(request.toolName, request.input)
        : undefined,
    [request],
  );
  const target = command ?? toolInputSummary(request.toolName, request.input, cwd, 200);
  // The whole question on screen: a diff taller than the room left would push the file's name
  // off the top of a 24-row terminal.
  const diffRows = Math.max(4, Math.min(MAX_DIFF_ROWS, (rows ?? 60) - DIALOG_CHROME_ROWS));

  return (
    <DialogFrame marginTop={1}>
      <Text>{style.bold(`${request.toolName}${command ? ' command' : ''}`)}</Text>
      <Box paddingLeft={2}>
        <Text>{target}</Text>
      </Box>
      {hunks && hunks.length > 0 ? (
        <Box paddingLeft={2}>
          <Text>{renderHunks(hunks, style, diffRows, '').join('\n')}</Text>
        </Box>
      ) : null}
      {parts.reasons.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>{style.dim('Needs approval:')}</Text>
          {parts.reasons.map((reason) => (
            <Text key={reason}>{`  • ${reason}`}</Text>
          ))}
        </Box>
      ) : null}
      {[...parts.other].map((line) => (
        <Text key={line}>{style.dim(line)}</Text>
      ))}
      {parts.warnings.map((warning) => (
        <Text key={warning}>{style.fg('red', `⚠ ${warning}`)}</Text>
      ))}
      <Box flexDirection="column" marginTop={1}>
        <Text>{parts.question || `Allow ${request.toolName}?`}</Text>
        <ChoiceList
          labels={choices.map((c) => c.label)}
          details={choices.map((c) => c.detail)}
          selected={selected}
        />
      </Box>
      {note !== undefined ? (
        <>
          <Text>{`${style.dim('Tell the model:')} ${note}█`}</Text>
          <Text>{style.dim('Enter to send · Esc to go back to the choices')}</Text>
        </>
      ) : (
        <Text>{style.dim(`Enter to confirm · Esc to deny · 1-${choices.length} to choose`)}</Text>
      )}
    </DialogFrame>
  );
}
