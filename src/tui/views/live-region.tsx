/**
 * The part of the screen Ink redraws: items still running, the block being streamed (only its
 * last lines: the settled blocks are already in the scrollback), and the spinner. Kept shorter
 * than the terminal, so Ink never has to clear the screen to redraw it.
 */
import { Box, Text } from 'ink';
import type { TranscriptSnapshot } from '../transcript/transcript-store';
import { renderMarkdown } from './markdown';
import { Spinner } from './spinner';
import { useStyle } from './style-context';
import { TranscriptItemView } from './transcript-item';

export type LiveRegionProps = {
  snapshot: TranscriptSnapshot;
  cwd: string;
  full: boolean;
  now: number;
  turnStartedAt: number | undefined;
  /** Lines the streaming block may use. */
  maxDraftLines: number;
};

function tail(text: string, lines: number): string {
  const all = text.split('\n');
  return all.length <= lines ? text : all.slice(-lines).join('\n');
}

export function LiveRegion({ snapshot, cwd, full, now, turnStartedAt, maxDraftLines }: LiveRegionProps) {
  const style = useStyle();
  const draft = snapshot.draft;
  return (
    <Box flexDirection="column">
      {snapshot.live.map((item) => (
        <TranscriptItemView key={item.id} item={item} cwd={cwd} full={full} now={now} />
      ))}
      {draft?.kind === 'text' && draft.text.trim() ? (
        <Box marginTop={1} paddingLeft={2}>
          <Text>{renderMarkdown(tail(draft.text, maxDraftLines), style)}</Text>
        </Box>
      ) : null}
      {draft?.kind === 'thinking' ? (
        <Box marginTop={1} paddingLeft={2}>
          <Text>{style.dim(style.italic('✻ Thinking…'))}</Text>
        </Box>
      ) : null}
      {turnStartedAt !== undefined ? (
        <Box marginTop={1}>
          <Spinner startedAt={turnStartedAt} now={now} tokens={snapshot.turnTokens} />
        </Box>
      ) : null}
    </Box>
  );
}
