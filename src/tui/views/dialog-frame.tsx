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

export function ChoiceList({ labels, selected }: { labels: readonly string[]; selected: number }) {
  const style = useStyle();
  return (
    <>
      {labels.map((label, index) => (
        <Text key={label}>
          {index === selected ? style.fg('cyan', `❯ ${index + 1}. ${label}`) : `  ${index + 1}. ${label}`}
        </Text>
      ))}
    </>
  );
}
