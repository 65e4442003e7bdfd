/** The working indicator: a spinner, elapsed time and tokens, and how to interrupt. */
import { Text } from 'ink';
import { useStyle } from './style-context';
import { formatElapsed } from './tool-summary';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function Spinner({ startedAt, now, tokens }: { startedAt: number; now: number; tokens: number }) {
  const style = useStyle();
  const elapsed = Math.max(0, now - startedAt);
  const frame = FRAMES[Math.floor(elapsed / 250) % FRAMES.length];
  const facts = [formatElapsed(elapsed), ...(tokens > 0 ? [`↓ ${tokens} tokens`] : []), 'esc to interrupt'];
  return <Text>{`${style.fg('magenta', frame ?? '')} Working… ${style.dim(`(${facts.join(' · ')})`)}`}</Text>;
}
