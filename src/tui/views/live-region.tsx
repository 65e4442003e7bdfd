/**
 * The part of the screen Ink redraws: items still running, the block being streamed (only its
 * last lines: the settled blocks are already in the scrollback), and the spinner. Kept shorter
 * than the terminal, so Ink never has to clear the screen to redraw it. The streaming block
 * renders as its settled blocks will (same box, same rows), so when one settles its rows stay on
 * screen and become scrollback without being drawn again (terminal/frame-writer.ts).
 */
import { Box, Text } from 'ink';
import type { TranscriptSnapshot } from '../transcript/transcript-store';
import { renderAnswerBlock } from './markdown';
import { Spinner } from './spinner';
import { useStyle } from './style-context';
import { TranscriptItemView, useAnswerWidth } from './transcript-item';

export type LiveRegionProps = {
  snapshot: TranscriptSnapshot;
  cwd: string;
  full: boolean;
  now: number;
  /** Output tokens of the turn, as of the spinner's last tick. */
  tokens: number;
  turnStartedAt: number | undefined;
  /** Lines the streaming block may use. */
  maxDraftLines: number;
};

/** The last rows of rendered text (rendered whole first, so a code fence cut off above still counts). */
function lastRows(rendered: string, rows: number): string {
  const all = rendered.split('\n');
  return all.length <= rows ? rendered : all.slice(-rows).join('\n');
}

export function LiveRegion({
  snapshot,
  cwd,
  full,
  now,
  tokens,
  turnStartedAt,
  maxDraftLines,
}: LiveRegionProps) {
  const style = useStyle();
  const answerWidth = useAnswerWidth();
  const draft = snapshot.draft;
  return (
    <Box flexDirection="column">
      {snapshot.live.map((item) => (
        <TranscriptItemView key={item.id} item={item} cwd={cwd} full={full} now={now} />
      ))}
      {draft?.kind === 'text' && draft.text.trim() ? (
        <Box marginTop={draft.continued ? 0 : 1} paddingLeft={2}>
          <Text>{lastRows(renderAnswerBlock(draft.text, style, answerWidth), maxDraftLines)}</Text>
        </Box>
      ) : null}
      {draft?.kind === 'thinking' ? (
        <Box marginTop={1} paddingLeft={2}>
          <Text>{style.dim(style.italic('✻ Thinking…'))}</Text>
        </Box>
      ) : null}
      {turnStartedAt !== undefined ? (
        <Box marginTop={1}>
          <Spinner startedAt={turnStartedAt} now={now} tokens={tokens} />
        </Box>
      ) : null}
    </Box>
  );
}
