import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageResizerAvailability } from './resizer-availability';

function install(packages: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'yoke-sharp-'));
  for (const name of packages) {
    mkdirSync(join(root, 'node_modules', name), { recursive: true });
    writeFileSync(join(root, 'node_modules', name, 'package.json'), '{}');
  }
  return join(root, 'app.js');
}

describe('imageResizerAvailability', () => {
  it('is available with sharp and its native package for the platform', () => {
    expect(imageResizerAvailability()).toEqual({ status: 'available' });
    expect(
      imageResizerAvailability(install(['sharp', '@img/sharp-linuxmusl-arm64']), 'linux', 'arm64'),
    ).toEqual({
      status: 'available',
    });
  });

  it('is degraded, saying what is missing, without sharp or without its binary', () => {
    expect(imageResizerAvailability(install([]), 'linux', 'x64')).toEqual({
      status: 'degraded',
      reason: expect.stringContaining('the sharp package is not installed'),
    });
    expect(imageResizerAvailability(install(['sharp', '@img/sharp-darwin-arm64']), 'linux', 'x64')).toEqual({
      status: 'degraded',
      reason: expect.stringContaining('@img/sharp-linux-x64 is not installed'),
    });
  });
});
