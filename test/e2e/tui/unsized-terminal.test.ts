/**
 * A pseudo-terminal whose size was never set (no TIOCSWINSZ: some container and CI runners, a
 * program's own pty) reports 0 columns and 0 rows. The REPL lays out for 80×24 then, as Ink and
 * most terminal programs do, until a resize says otherwise: at 0 columns the input box was four
 * columns wide and rows were cut inside their escape sequences, which the terminal then showed as
 * text ("[2m>").
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { YOKE_BIN } from '../helpers';
import { useTuiFixture } from './fixture';

const fx = useTuiFixture('yoke-unsized-');

/** Runs yoke in a pty left at 0×0 until the input box's bottom shows (or 30 s), and returns what it wrote. */
const PTY_SCRIPT = `
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b''
deadline = time.monotonic() + 30
while time.monotonic() < deadline and '╰'.encode() not in out:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
os.kill(pid, 9)
os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
`;

it('a terminal that reports no size gets the 80-column layout, with whole escape sequences', {
  timeout: 60_000,
}, async () => {
  const child = spawn('python3', ['-c', PTY_SCRIPT, process.execPath, YOKE_BIN], {
    cwd: fx.cwd,
    env: { ...fx.env(), TERM: 'xterm-256color' } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  await once(child, 'close');
  // The box's top border, a row of ─ between ╭ and ╮, spans the 80 columns less the margins.
  const border = /╭(─+)╮/.exec(out)?.[1] ?? '';
  expect(border.length, out).toBeGreaterThanOrEqual(70);
  // No escape sequence's tail left as text: every "[…m" is part of an escape sequence.
  const visible = out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\u001b\][^\u0007]*\u0007/g, '');
  expect(visible).not.toMatch(/\[[0-9;]*m/);
});
