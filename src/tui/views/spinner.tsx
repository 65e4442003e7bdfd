/** The working indicator: a spinner, elapsed time and tokens, a server that has not answered yet, and how to interrupt. */
import { Text } from 'ink';
import { useStyle } from './style-context';
import { formatElapsed } from './tool-summary';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function Spinner({
  startedAt,
  now,
  tokens,
  serverWaitSince,
}: {
  startedAt: number;
  now: number;
  tokens: number;
  /** Since when the server has not answered (session/server-wait.ts); absent while it answers. */
  serverWaitSince?: number | undefined;
}) {
  const style = useStyle();
  const elapsed = Math.max(0, now - startedAt);
  const frame = FRAMES[Math.floor(elapsed / 250) % FRAMES.length];
  // A server still silent is named, with how long: a local one may be loading the model.
  const waiting =
    serverWaitSince === undefined
      ? []
      : [`no answer from the model server for ${formatElapsed(Math.max(0, now - serverWaitSince))}`];
  const facts = [
    formatElapsed(elapsed),
    ...(tokens > 0 ? [`↓ ${tokens} tokens`] : []),
    ...waiting,
    'esc to interrupt',
  ];
  return <Text>{`${style.fg('magenta', frame ?? '')} Working… ${style.dim(`(${facts.join(' · ')})`)}`}</Text>;
}
