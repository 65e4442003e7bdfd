/** The terminal's size, re-rendering the component that asks when the terminal is resized. */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export type TerminalSize = { columns: number; rows: number };

const sizeOf = (stdout: NodeJS.WriteStream): TerminalSize => ({
  columns: stdout.columns || 80,
  rows: stdout.rows || 24,
});

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => {
      const next = sizeOf(stdout);
      setSize((last) => (last.columns === next.columns && last.rows === next.rows ? last : next));
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
