import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxManager } from '../../../sandbox/manager';
import { denyRead, hasBubblewrap, sandboxFixture, sandboxManager } from '../../../sandbox/test-support';
import { SessionServices } from '../../session-services';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { type BashOutput, bashTool } from './index';
import { isAlive } from './test-helpers';

const services: SessionServices[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.dispose()));
});

function contextFor(project: string, sandbox: SandboxManager) {
  const env = { ...process.env };
  const sessionServices = new SessionServices({ env, sandbox });
  services.push(sessionServices);
  return makeTestContext({ cwd: project, projectRoot: project, env, services: sessionServices });
}

async function run(
  context: ReturnType<typeof contextFor>,
  command: string,
  extra: Record<string, unknown> = {},
) {
  const result = await callTool<BashOutput>(bashTool, { command, ...extra }, context);
  return { result, text: resultText(bashTool, result) };
}

/** Processes that renamed themselves `marker…` (`exec -a`), zombies left out (they are already dead). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(marker) && isAlive(pid);
      } catch {
        return false;
      }
    });
}

/** A plain HTTP server on loopback standing in for a host on the internet. */
async function loopbackServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((_request, response) => response.end('hello from the allowed host\n'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.skipIf(!hasBubblewrap())('Bash in the sandbox (real bubblewrap)', () => {
  it('writes inside the project; a write outside is refused with a readable reason', async () => {
    const fixture = sandboxFixture();
    const context = contextFor(fixture.project, sandboxManager(fixture));
    const inside = await run(context, 'echo made > made.txt && cat made.txt');
    expect(inside.text).toBe('made');
    // /etc stands for any system folder; the write would succeed unsandboxed (the tests run as root).
    const systemFile = '/etc/yoke-sandbox-planted';
    const system = await run(context, `echo x > ${systemFile}`);
    expect(system.result.isError).toBe(true);
    expect(system.text).toContain(
      `write to ${systemFile} blocked by the sandbox: outside the writable paths`,
    );
    expect(existsSync(systemFile)).toBe(false);
    const outsideFile = join(fixture.outside, 'planted.txt');
    const outside = await run(context, `echo x > ${outsideFile}`);
    expect(outside.text).toContain(
      `${outsideFile} is not reachable in the sandbox: /tmp is private inside it`,
    );
    expect(existsSync(outsideFile)).toBe(false);
  });

  it('keeps .git/hooks read-only inside the writable project', async () => {
    const fixture = sandboxFixture();
    const context = contextFor(fixture.project, sandboxManager(fixture));
    const hook = join(fixture.project, '.git', 'hooks', 'pre-commit');
    const { result, text } = await run(context, `printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit`);
    expect(result.isError).toBe(true);
    expect(text).toContain(
      `write to ${hook} blocked by the sandbox: it stays read-only because git runs its hooks`,
    );
    expect(existsSync(hook)).toBe(false);
  });

  it('hides a secret a deny rule names', async () => {
    const fixture = sandboxFixture();
    const context = contextFor(
      fixture.project,
      sandboxManager(fixture, {}, [denyRead('~/.ssh'), denyRead('**/.env')]),
    );
    const { text } = await run(
      context,
      `cat ${fixture.home}/.ssh/id_ed25519 .env; ls -A ${fixture.home}/.ssh | wc -l`,
    );
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain('secret-in-env');
    expect(readFileSync(join(fixture.project, '.env'), 'utf8')).toContain('secret-in-env');
  });

  it('cannot connect to a Unix socket outside: creating one is refused (seccomp)', async () => {
    const fixture = sandboxFixture();
    // A listening socket inside the writable project, so the path itself is reachable.
    const socketPath = join(fixture.project, 'agent.sock');
    const listener: ReturnType<typeof createNetServer> = createNetServer((socket) =>
      socket.end('SECRET-FROM-SOCKET\n'),
    );
    listener.listen(socketPath);
    await once(listener, 'listening');
    try {
      // Unsandboxed the same command prints the secret (calibration of the effect blocked).
      const plain = await run(
        contextFor(fixture.project, sandboxManager(fixture, { enabled: false })),
        `socat -u UNIX-CONNECT:${socketPath} -`,
      );
      expect(plain.text).toContain('SECRET-FROM-SOCKET');
      const context = contextFor(fixture.project, sandboxManager(fixture));
      const { result, text } = await run(context, `socat -u UNIX-CONNECT:${socketPath} -`);
      expect(result.isError).toBe(true);
      expect(text).not.toContain('SECRET-FROM-SOCKET');
      expect(text).toContain('connecting to a Unix socket blocked by the sandbox');
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('with allowUnixSockets, reaches the named socket only: other bound sockets are masked, abstract ones are not there', async () => {
    const fixture = sandboxFixture();
    const serve = async (path: string, secret: string) => {
      const server = createNetServer((socket) => socket.end(`${secret}\n`));
      server.listen(path);
      await once(server, 'listening');
      return server;
    };
    const allowed = join(fixture.outside, 'allowed.sock');
    // Outside the private folders, where an ssh agent or docker would live: reachable by path.
    const other = join(fixture.project, 'agent.sock');
    // Node binds an abstract name padded to the full address length, hence socat's tightsocklen=0.
    const abstractName = `yoke-test-${process.pid}-${Date.now()}`;
    const servers = [
      await serve(allowed, 'FROM-ALLOWED'),
      await serve(other, 'FROM-OTHER'),
      await serve(`\0${abstractName}`, 'FROM-ABSTRACT'),
    ];
    const read = `socat -u UNIX-CONNECT:${allowed} - ; socat -u UNIX-CONNECT:${other} - ; socat -u ABSTRACT-CONNECT:${abstractName},unix-tightsocklen=0 -`;
    try {
      // Calibration: unsandboxed, all three answer.
      const plain = await run(contextFor(fixture.project, sandboxManager(fixture, { enabled: false })), read);
      for (const secret of ['FROM-ALLOWED', 'FROM-OTHER', 'FROM-ABSTRACT'])
        expect(plain.text).toContain(secret);
      const context = contextFor(fixture.project, sandboxManager(fixture, { allowUnixSockets: [allowed] }));
      const { text } = await run(context, read);
      expect(text).toContain('FROM-ALLOWED');
      expect(text).not.toContain('FROM-OTHER');
      expect(text).not.toContain('FROM-ABSTRACT');
      expect(text).toContain(
        `connecting to ${other} blocked by the sandbox: only the sockets in sandbox.network.allowUnixSockets are reachable (${allowed})`,
      );
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  it('runs a loopback server inside, in a network of its own', async () => {
    const fixture = sandboxFixture();
    // A port taken on the machine's loopback: binding it inside works only in another namespace.
    const host = await loopbackServer();
    try {
      const context = contextFor(fixture.project, sandboxManager(fixture));
      const { text } = await run(
        context,
        `python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', ${host.port})); s.listen(); c=socket.create_connection(('127.0.0.1', ${host.port})); a,_=s.accept(); a.sendall(b'loopback-ok'); print(c.recv(20).decode())"`,
      );
      expect(text).toBe('loopback-ok');
    } finally {
      await host.close();
    }
  });

  it('has no network by default: a direct connection fails and says why', async () => {
    const fixture = sandboxFixture();
    const host = await loopbackServer();
    try {
      const context = contextFor(fixture.project, sandboxManager(fixture));
      const { text } = await run(context, `curl -sS --max-time 5 http://127.0.0.1:${host.port}/`);
      expect(text).not.toContain('hello from the allowed host');
      const named = await run(context, 'curl -sS --max-time 5 http://example.com/');
      expect(named.text).toContain('network access blocked by the sandbox: commands have no network');
    } finally {
      await host.close();
    }
  });

  it('reaches an allowed host through the proxy, and no other host', async () => {
    const fixture = sandboxFixture();
    const host = await loopbackServer();
    try {
      const context = contextFor(fixture.project, sandboxManager(fixture, { allowedDomains: ['localhost'] }));
      const allowed = await run(context, `curl -sS --max-time 5 http://localhost:${host.port}/`);
      expect(allowed.text).toBe('hello from the allowed host');
      // The same server by another name is another host: not on the list.
      const other = await run(context, `curl -sS --max-time 5 http://127.0.0.1:${host.port}/`);
      expect(other.text).not.toContain('hello from the allowed host');
      expect(other.text).toContain(
        `connection to 127.0.0.1:${host.port} blocked by the sandbox: 127.0.0.1 is not in sandbox.network.allowedDomains`,
      );
      // HTTPS-style tunnels and SOCKS5 go through the same check.
      const tunnel = await run(context, `curl -sS --max-time 5 -p http://localhost:${host.port}/`);
      expect(tunnel.text).toBe('hello from the allowed host');
      const socks = await run(
        context,
        `curl -sS --max-time 5 --proxy "$ALL_PROXY" http://localhost:${host.port}/`,
      );
      expect(socks.text).toBe('hello from the allowed host');
      const socksOther = await run(context, `curl -sS --max-time 5 --proxy "$ALL_PROXY" http://example.com/`);
      expect(socksOther.text).toContain('connection to example.com:80 blocked by the sandbox');
      // Going around the proxy finds no network at all.
      const direct = await run(context, `curl -sS --max-time 5 --noproxy '*' http://localhost:${host.port}/`);
      expect(direct.text).not.toContain('hello from the allowed host');
    } finally {
      await host.close();
    }
  });

  it('leaves nothing running after the call: setsid and double forks die with it', async () => {
    const fixture = sandboxFixture();
    // The command waits until all three escapees run under their names before it ends: ended at
    // once, the call's group kill could come before `setsid` had left the group (the calibration
    // then found no survivor under load), and a sandboxed run would prove nothing of processes
    // that never started.
    const escapeAttempt = (marker: string) =>
      `setsid bash -c 'exec -a ${marker}-a sleep 300' & (bash -c 'exec -a ${marker}-b sleep 300' &) ; nohup bash -c 'exec -a ${marker}-c sleep 300' >/dev/null 2>&1 & ` +
      `until [ "$(cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' '\\n' | grep -c '^${marker}-')" -ge 3 ]; do sleep 0.05; done; echo started`;
    // Calibration: unsandboxed, the setsid child leaves the command's process group and survives.
    const calibration = `yoke-calibrate-${process.pid}-${Date.now()}`;
    await run(
      contextFor(fixture.project, sandboxManager(fixture, { enabled: false })),
      escapeAttempt(calibration),
    );
    const survivors = processesWith(calibration);
    for (const pid of survivors) process.kill(pid, 'SIGKILL');
    expect(survivors.length).toBeGreaterThan(0);

    const marker = `yoke-escape-${process.pid}-${Date.now()}`;
    const context = contextFor(fixture.project, sandboxManager(fixture));
    const { text } = await run(context, escapeAttempt(marker));
    expect(text).toBe('started');
    // bubblewrap's outer process exits as soon as the command has; the kernel kills the rest of
    // the sandbox's pid namespace a moment later (under load, after the call returned). They are
    // `sleep 300`s: nothing but the sandbox ends them within this test.
    await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 20_000, interval: 50 });
  });

  it('runs a background shell inside the sandbox for as long as it lives', async () => {
    const fixture = sandboxFixture();
    const context = contextFor(fixture.project, sandboxManager(fixture));
    const started = await run(context, 'echo x > /etc/yoke-bg-planted; echo done', {
      run_in_background: true,
    });
    const id = started.result.data.backgroundTaskId as string;
    const shells = context.services.shells;
    await shells.wait(id, 20_000, new AbortController().signal);
    expect(existsSync('/etc/yoke-bg-planted')).toBe(false);
    expect(readFileSync(shells.get(id)?.outputPath as string, 'utf8')).toContain('Read-only file system');
  });
});
