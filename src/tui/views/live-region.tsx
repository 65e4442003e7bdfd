/**
 * The part of the screen Ink redraws: items still running, the block being streamed (only its
 * last lines: the settled blocks are already in the scrollback), and the spinner. Kept shorter
 * than the terminal, so Ink never has to clear the screen to redraw it. The streaming block
 * renders as its settled blocks will (same box, same rows), so when one settles its rows stay on
 * screen and become scrollback without being drawn again (terminal/frame-writer.ts).
 */
import { Box, Text } from 'ink';
import { wrappedRows } from '../terminal/terminal-reflow';
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
  /** Since when the server has not answered the turn's latest request, once worth saying. */
  serverWaitSince?: number | undefined;
  turnStartedAt: number | undefined;
  /** Lines the streaming block may use. */
  maxDraftLines: number;
};

/** The last rows of rendered text (rendered whole first, so a code fence cut off above still counts). */
function lastRows(rendered: string, rows: number): string {
  const all = rendered.split('\n');
  return all.length <= rows ? rendered : all.slice(-rows).join('\n');
}

/**
 * The block being streamed, at most `maxRows` rows on screen. A paragraph is one line of the
 * text, wrapped by the terminal's width only as Ink lays it out, so `lastRows` cannot shorten a
 * long one: its rows are clipped to the last `maxRows` here, where Ink wraps it exactly as the
 * settled block will be. A live region taller than the screen is what a terminal that gets
 * narrower mid-answer rewraps into the scrollback, beyond any redraw.
 */
function DraftBlock({
  text,
  continued,
  width,
  maxRows,
}: {
  text: string;
  continued: boolean | undefined;
  width: number | undefined;
  maxRows: number;
}) {
  // At least the rows the text wraps to: word wrapping only ever adds rows, so a block counted
  // taller than `maxRows` is, and the fixed height never pads a short one.
  const rows = width ? text.split('\n').reduce((sum, line) => sum + wrappedRows(line, width), 0) : 0;
  const clip =
    rows > maxRows
      ? ({
          height: maxRows,
          overflowY: 'hidden',
          flexDirection: 'column',
          justifyContent: 'flex-end',
        } as const)
      : {};
  return (
    <Box marginTop={continued ? 0 : 1} paddingLeft={2} {...clip}>
      {/* Kept its full height (not shrunk to the box), so the box's bottom shows its last rows. */}
      <Box flexShrink={0}>
        <Text>{text}</Text>
      </Box>
    </Box>
  );
}

export function LiveRegion({
  snapshot,
  cwd,
  full,
  now,
  tokens,
  serverWaitSince,
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
        <DraftBlock
          text={lastRows(renderAnswerBlock(draft.text, style, answerWidth), maxDraftLines)}
          continued={draft.continued}
          width={answerWidth}
          maxRows={maxDraftLines}
        />
      ) : null}
      {draft?.kind === 'thinking' ? (
        <Box marginTop={1} paddingLeft={2}>
          <Text>{style.dim(style.italic('✻ Thinking…'))}</Text>
        </Box>
      ) : null}
      {turnStartedAt !== undefined ? (
        <Box marginTop={1}>
          <Spinner startedAt={turnStartedAt} now={now} tokens={tokens} serverWaitSince={serverWaitSince} />
        </Box>
      ) : null}
    </Box>
  );
}
