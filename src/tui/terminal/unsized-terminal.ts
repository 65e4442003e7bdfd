/**
 * A pseudo-terminal whose size was never set (no TIOCSWINSZ: some container and CI runners, a
 * program's own pty) reports 0 columns and 0 rows. Laid out at 0 columns, the REPL's input box was
 * four columns wide and rows were cut inside their escape sequences, which the terminal showed as
 * text. Such a terminal is taken as 80×24, as Ink and most terminal programs take one whose size
 * is unknown; the first resize event sets the real size (Node reads it from the kernel then).
 */
export function sizeUnsizedTerminal(stream: { columns: number; rows: number }): void {
  if (!stream.columns) stream.columns = 80;
  if (!stream.rows) stream.rows = 24;
}
