/**
 * A YAML parser's error as one readable clause about the file it came from. Frontmatter is parsed
 * without its opening `---` line, so the parser counts lines from the file's second: a user who
 * opens the file at the line the error names would land one line early. The line is counted from
 * the file's start instead, and the parser's trailing colon (it introduces a code frame) goes.
 */
export function yamlErrorReason(error: unknown, linesBefore: number): string {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return first
    .replace(/:\s*$/, '')
    .replace(
      /\bat line (\d+), column (\d+)/,
      (_match, line: string, column: string) => `at line ${Number(line) + linesBefore}, column ${column}`,
    );
}
