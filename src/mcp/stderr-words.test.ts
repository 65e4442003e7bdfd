import { describe, expect, it } from 'vitest';
import { stderrLastWords } from './stderr-words';

describe('stderrLastWords', () => {
  it("passes over npm's own notices after the server's error (a server started with npx)", () => {
    // What `npx @modelcontextprotocol/server-filesystem ~/notes` writes when ~/notes does not exist.
    const tail = [
      'npm warn exec The following package was not found and will be installed: @modelcontextprotocol/server-filesystem@2026.8.31',
      'Warning: Cannot access directory /home/me/notes, skipping',
      'Error: None of the specified directories are accessible',
      'npm notice',
      'npm notice New minor version of npm available! 11.19.1 -> 11.21.2',
      'npm notice To update run: npm install -g npm@11.21.2',
      'npm notice',
    ].join('\n');
    expect(stderrLastWords(tail)).toBe('Error: None of the specified directories are accessible');
  });

  it('takes the last error line over a later farewell, else the last line', () => {
    expect(stderrLastWords('starting\nError: port 9 in use\nbye')).toBe('Error: port 9 in use');
    expect(stderrLastWords('starting\nlistening on stdio')).toBe('listening on stdio');
    expect(stderrLastWords('npm notice only')).toBe('npm notice only');
    expect(stderrLastWords('')).toBeUndefined();
    expect(stderrLastWords('x'.repeat(400))).toHaveLength(300);
  });
});
