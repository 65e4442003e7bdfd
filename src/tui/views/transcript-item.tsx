/** One transcript item as terminal lines. Finished items render once, into the scrollback. */
import { Box, Text, useStdout } from 'ink';
import type { TranscriptItem } from '../transcript/items';
import { renderAnswerBlock } from './markdown';
import { useStyle } from './style-context';
import { ToolCallView } from './tool-call';
import { lineCount } from './tool-summary';

export type ItemViewProps = { item: TranscriptItem; cwd: string; full: boolean; now?: number };

/** The columns an answer has beside its indent (a markdown table is laid out to fit them). */
export function useAnswerWidth(): number | undefined {
  const columns = useStdout().stdout.columns;
  return columns ? columns - 2 : undefined;
}

export function TranscriptItemView({ item, cwd, full, now }: ItemViewProps) {
  const style = useStyle();
  const answerWidth = useAnswerWidth();
  switch (item.kind) {
    case 'user':
      return (
        // The text in a column of its own: a prompt wider than the terminal wraps under its first
        // word, as its own later lines do, not back under the `>`. The column's width is given:
        // in <Static> a row's children are laid out at the terminal's full width, not shrunk.
        <Box marginTop={1}>
          <Text>{`${style.dim('>')} `}</Text>
          <Box width={answerWidth}>
            <Text>{item.text}</Text>
          </Box>
        </Box>
      );
    case 'assistant':
      return (
        <Box marginTop={item.continued ? 0 : 1} paddingLeft={2}>
          <Text>{renderAnswerBlock(item.text, style, answerWidth)}</Text>
        </Box>
      );
    case 'thinking': {
      const first = item.text.trim().split('\n')[0] ?? '';
      return (
        <Box marginTop={1} paddingLeft={2}>
          <Text>
            {style.dim(
              style.italic(
                full
                  ? `✻ Thinking…\n${item.text}`
                  : `✻ Thinking… ${first.slice(0, 60)}${first.length > 60 || item.text.includes('\n') ? '…' : ''}`,
              ),
            )}
          </Text>
        </Box>
      );
    }
    case 'tool':
      return <ToolCallView item={item} cwd={cwd} full={full} now={now ?? Date.now()} />;
    case 'shell': {
      const lines = item.output.replace(/\n+$/, '').split('\n');
      const shown = full ? lines : lines.slice(-10);
      const status = item.exitCode === 0 ? '' : style.fg('red', ` (exit ${item.exitCode ?? 'killed'})`);
      return (
        <Box marginTop={1} flexDirection="column">
          <Text>{`${style.fg('magenta', '!')} ${item.command}${status}`}</Text>
          {item.output.trim() ? (
            <Box paddingLeft={2}>
              <Text>
                {(lines.length > shown.length
                  ? [style.dim(`… ${lineCount(lines.length - shown.length, 'earlier')}`), ...shown]
                  : shown
                ).join('\n')}
              </Text>
            </Box>
          ) : null}
        </Box>
      );
    }
    case 'notice': {
      const colour = item.level === 'error' ? 'red' : item.level === 'warning' ? 'yellow' : undefined;
      const text = colour ? style.fg(colour, item.text) : style.dim(item.text);
      return (
        <Box marginTop={1}>
          <Text>{text}</Text>
        </Box>
      );
    }
    case 'command-output':
      return (
        <Box marginTop={1} paddingLeft={2}>
          <Text>{item.text}</Text>
        </Box>
      );
    case 'turn-end': {
      const paint = (text: string) => (item.isError ? style.fg('red', text) : style.dim(text));
      // A long error wraps under its own text, beside the ⎿ (in a column of a given width, as a prompt's).
      return (
        <Box paddingLeft={2}>
          <Text>{paint('⎿ ')}</Text>
          <Box width={answerWidth === undefined ? undefined : answerWidth - 2}>
            <Text>{paint(item.text)}</Text>
          </Box>
        </Box>
      );
    }
  }
}
