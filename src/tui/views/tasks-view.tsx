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
import { displayWidth } from './display-width';
import { SelectList } from './select-list';
import { useStyle } from './style-context';
import { useTerminalSize } from './use-terminal-size';

/** Lines of output the detail view shows (the end of the file). */
const OUTPUT_LINES = 15;
const OUTPUT_WINDOW_BYTES = 64 * 1024;

/** Columns the list takes around a row: the frame's borders and padding, and the `❯ ` marker. */
const ROW_CHROME = 6;
/** The latest line keeps at least this much room; the title gives way first, down to its minimum. */
const LATEST_ROOM = 30;
const TITLE_MIN = 12;

/**
 * One task's row, fitted to `columns`: the status, running time and latest line are what the view
 * is for, so a long title (a shell's command) is shortened before they are cut.
 */
export function taskRowText(row: TaskRow, now: number, columns = Number.POSITIVE_INFINITY): string {
  const elapsed = formatTaskElapsed((row.endedAt ?? now) - row.startedAt);
  const latest = row.latest === '' ? '' : `  ${row.latest}`;
  const head = `${row.id}  ${row.kind}  `;
  const tail = ` · ${row.statusText} · ${elapsed}`;
  const room =
    columns -
    ROW_CHROME -
    displayWidth(head) -
    displayWidth(tail) -
    Math.min(displayWidth(latest), LATEST_ROOM);
  return `${head}${shortened(row.title, Math.max(TITLE_MIN, room))}${tail}${latest}`;
}

function shortened(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const char of Array.from(text)) {
    if (displayWidth(`${out}${char}…`) > width) break;
    out += char;
  }
  return `${out.trimEnd()}…`;
}

export function TasksView({ board, onClose }: { board: TaskBoard; onClose(): void }) {
  const style = useStyle();
  const rows = useSyncExternalStore(board.subscribe, board.getRows);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [note, setNote] = useState('');
  const [now, setNow] = useState(Date.now());
  const { columns } = useTerminalSize();
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
        row={(row) => taskRowText(row, now, columns)}
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
