/**
 * Test support for the calibration suites, which run real tools by the names a user types: a
 * PATH with a folder of links in front, so `rg` is the ripgrep Yoke itself ships (npm's
 * @vscode/ripgrep — a machine needs no system rg) and `fd` is Debian's `fdfind`. A name whose
 * tool is truly absent gets no link, and its rows skip saying so.
 */
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { bundledRipgrep } from '../tools/builtin/shared/ripgrep';

function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** `path` with the calibration tool links in front (the folder lives until the machine's tmp is cleaned). */
export function withCalibrationTools(path: string = process.env.PATH ?? '/usr/bin:/bin'): string {
  const bin = mkdtempSync(join(tmpdir(), 'yoke-calibration-bin-'));
  const rg = bundledRipgrep();
  if ('path' in rg) symlinkSync(rg.path, join(bin, 'rg'));
  const fdfind = onPath('fdfind', path);
  if (fdfind && !onPath('fd', path)) symlinkSync(fdfind, join(bin, 'fd'));
  return `${bin}${delimiter}${path}`;
}
