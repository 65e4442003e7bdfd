/** The frame and numbered choices every question dialog shares. */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useStyle } from './style-context';

export function DialogFrame({ children, marginTop = 0 }: { children: ReactNode; marginTop?: number }) {
  const style = useStyle();
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={style.color ? 'yellow' : undefined}
      paddingX={1}
      marginTop={marginTop}
    >
      {children}
    </Box>
  );
}

export function ChoiceList({
  labels,
  details = [],
  selected,
}: {
  labels: readonly string[];
  /** A dimmed line under a label, by index. */
  details?: readonly (string | undefined)[];
  selected: number;
}) {
  const style = useStyle();
  return (
    <>
      {labels.map((label, index) => {
        const paint = (text: string) => (index === selected ? style.fg('cyan', text) : text);
        const marker = `${index === selected ? '❯' : ' '} ${index + 1}. `;
        // A long label wraps under its own first word, not under the number.
        return (
          <Box key={label} flexDirection="row">
            <Box flexShrink={0} width={marker.length}>
              <Text>{paint(marker)}</Text>
            </Box>
            <Box flexDirection="column">
              <Text>{paint(label)}</Text>
              {details[index] ? <Text>{style.dim(details[index])}</Text> : null}
            </Box>
          </Box>
        );
      })}
    </>
  );
}
