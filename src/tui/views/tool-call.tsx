/** A tool call: `● Name(summary)`, then `⎿ result` and a few detail lines (all with Ctrl+O). */
import { Box, Text } from 'ink';
import { isPending, type ToolItem } from '../transcript/items';
import { useStyle } from './style-context';
import { formatElapsed, toolInputSummary, toolResultSummary } from './tool-summary';

/** A tool that runs longer than this shows its elapsed time and latest output line. */
const LONG_TOOL_MS = 3000;

export function ToolCallView({
  item,
  cwd,
  full,
  now,
}: {
  item: ToolItem;
  cwd: string;
  full: boolean;
  now: number;
}) {
  const style = useStyle();
  const summary = toolInputSummary(item.name, item.input, cwd);
  const status = item.outcome.status;
  const dot = isPending(item.outcome)
    ? style.dim('●')
    : status === 'done'
      ? style.fg('green', '●')
      : style.fg('red', '●');
  const head = `${dot} ${style.bold(item.name)}${summary ? `(${summary})` : ''}`;
  if (status === 'awaiting-permission') {
    // Not started: the time the question waits is the user's, not the tool's.
    return (
      <Box marginTop={1} flexDirection="column">
        <Text>{head}</Text>
        <Box paddingLeft={2}>
          <Text>{style.fg('yellow', '⎿ Waiting for permission…')}</Text>
        </Box>
      </Box>
    );
  }
  if (status === 'waiting') {
    // Queued behind an earlier call, or in its hooks and checks: no clock runs yet.
    return (
      <Box marginTop={1} flexDirection="column">
        <Text>{head}</Text>
        <Box paddingLeft={2}>
          <Text>{style.dim('⎿ Waiting…')}</Text>
        </Box>
      </Box>
    );
  }
  if (item.outcome.status === 'running') {
    const elapsed = now - item.outcome.startedAt;
    const long = elapsed >= LONG_TOOL_MS;
    return (
      <Box marginTop={1} flexDirection="column">
        <Text>{head}</Text>
        <Box paddingLeft={2}>
          <Text>{style.dim(`⎿ Running…${long ? ` ${formatElapsed(elapsed)}` : ''}`)}</Text>
        </Box>
        {long && item.progress ? (
          <Box paddingLeft={4}>
            <Text wrap="truncate-end">{style.dim(item.progress)}</Text>
          </Box>
        ) : null}
      </Box>
    );
  }
  const result = toolResultSummary(item, style, full);
  return (
    <Box marginTop={1} flexDirection="column">
      <Text>{head}</Text>
      <Box paddingLeft={2} flexDirection="column">
        {/* One line: a headline longer than the terminal is cut, not wrapped under the ⎿. */}
        <Text wrap="truncate-end">{`⎿ ${result.headline}`}</Text>
        {result.detail.length > 0 ? (
          <Box paddingLeft={2}>
            <Text>{result.detail.join('\n')}</Text>
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}
