import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDebugLog } from './debug-log';

function capture() {
  const lines: string[] = [];
  return { lines, stderr: { write: (text: string) => lines.push(text) } };
}

describe('createDebugLog', () => {
  it('writes nothing for debug lines unless asked, but always warns', () => {
    const { lines, stderr } = capture();
    const log = createDebugLog({ debug: false, stderr });
    log.debug('hidden');
    log.warn('careful');
    expect(lines).toEqual(['yoke: warning: careful\n']);
  });

  it('prints an error as one line, with the stack only in debug mode', () => {
    const quiet = capture();
    createDebugLog({ debug: false, stderr: quiet.stderr }).error(new Error('boom'));
    expect(quiet.lines).toEqual(['yoke: boom\n']);
    const loud = capture();
    createDebugLog({ debug: true, stderr: loud.stderr }).error(new Error('boom'));
    expect(loud.lines[0]).toBe('yoke: boom\n');
    expect(loud.lines[1]).toContain('Error: boom');
  });

  it('sends debug lines and stacks to --debug-file, keeping stderr to one line', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'yoke-debug-')), 'debug.log');
    const { lines, stderr } = capture();
    const log = createDebugLog({ debug: false, debugFile: file, stderr });
    log.debug('model chosen');
    log.error(new Error('bad'));
    expect(lines).toEqual(['yoke: bad\n']);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('[debug] model chosen');
    expect(text).toContain('[error] Error: bad');
  });
});
