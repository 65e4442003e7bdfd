/**
 * The live /tasks view: every background task of the session (id, kind, status, running time,
 * latest line or summary), updated while it is open. Enter shows the selected task's recent
 * output under the list, `k` stops it, Esc goes back (from the output to the list, from the list
 * to the prompt).
 */
import { Box, Text } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { lastOutputLines } from '../../interactive/shell-tail';
import { formatTaskElapsed, type TaskBoard, type TaskRow } from '../../interactive/task-board';
import { useKeys } from '../input/use-keys';
import { DialogFrame } from './dialog-frame';
import { SelectList } from './select-list';
import { useStyle } from './style-context';

/** Lines of output the detail view shows (the end of the file). */
const OUTPUT_LINES = 15;
const OUTPUT_WINDOW_BYTES = 64 * 1024;

export function taskRowText(row: TaskRow, now: number): string {
  const elapsed = formatTaskElapsed((row.endedAt ?? now) - row.startedAt);
  const latest = row.latest === '' ? '' : `  ${row.latest}`;
  return `${row.id}  ${row.kind}  ${row.title} · ${row.statusText} · ${elapsed}${latest}`;
}

export function TasksView({ board, onClose }: { board: TaskBoard; onClose(): void }) {
  const style = useStyle();
  const rows = useSyncExternalStore(board.subscribe, board.getRows);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [note, setNote] = useState('');
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const opened = rows.find((row) => row.id === open);
  const running = rows.filter((row) => row.status === 'running').length;
  // The output opens under the list, which stays mounted: its cursor is kept, and once the output
  // closes the list has the keys at once.
  return (
    <>
      <SelectList
        title={`Background tasks (${running} running)`}
        items={rows}
        keyOf={(row) => row.id}
        row={(row) => taskRowText(row, now)}
        onPick={(row) => setOpen(row.id)}
        onClose={onClose}
        onKey={(event, row) => {
          if (event.type !== 'text' || event.text !== 'k' || !row) return false;
          if (row.status !== 'running') setNote(`${row.id} is not running.`);
          else {
            setNote(`Stopping ${row.id}…`);
            board.stop(row.id).then(
              () => setNote(`Stopped ${row.id}.`),
              (error: Error) => setNote(`${row.id} could not be stopped: ${error.message}`),
            );
          }
          return true;
        }}
        empty="No background tasks in this session."
        hint="↑/↓ to choose · Enter to see its output · k to stop it · Esc to close"
        footer={() => (note ? <Text>{style.dim(note)}</Text> : null)}
      />
      {opened ? <TaskOutput row={opened} onBack={() => setOpen(undefined)} /> : null}
    </>
  );
}

function TaskOutput({ row, onBack }: { row: TaskRow; onBack(): void }) {
  const style = useStyle();
  const [lines, setLines] = useState<string[] | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read whenever the board says the task changed (its latest line, its status)
  useEffect(() => {
    let live = true;
    void lastOutputLines(row.outputPath, OUTPUT_LINES, OUTPUT_WINDOW_BYTES).then((read) => {
      if (live) setLines(read);
    });
    return () => {
      live = false;
    };
  }, [row.outputPath, row.latest, row.status]);
  useKeys((event) => {
    if (event.type === 'key' && (event.name === 'escape' || event.name === 'return' || event.name === 'left'))
      onBack();
    return true;
  });
  return (
    <DialogFrame marginTop={1}>
      <Text>{style.bold(`${row.id} · ${row.title} · ${row.statusText}`)}</Text>
      <Box flexDirection="column" marginTop={1}>
        {lines === undefined ? <Text>{style.dim('Reading…')}</Text> : null}
        {lines?.length === 0 ? <Text>{style.dim('(no output yet)')}</Text> : null}
        {lines?.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: output lines repeat
          <Text key={i} wrap="truncate-end">
            {line}
          </Text>
        ))}
      </Box>
      <Text>{style.dim(`The whole output: ${row.outputPath} · Esc to go back`)}</Text>
    </DialogFrame>
  );
}
