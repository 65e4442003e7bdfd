/**
 * Connections opened before the first request needs them (`preconnect`): DNS, TCP and, for
 * https, the TLS handshake run while the session starts or the user types the first prompt, so
 * the first request goes out on a socket that is already there — to a remote API that is the
 * 50–300 ms a handshake costs, and in the REPL the connect's cold code no longer runs in the
 * moment the user presses Enter and types on.
 *
 * The agent is Node's keep-alive agent with one change: when it makes a connection for a host it
 * first takes the socket opened for it, if that is still open. From then on the agent owns it like
 * any other (kept alive after the answer, reused). A prepared socket is never sent on twice: it
 * leaves the set when taken, when it closes, and when its connect fails (the request then opens
 * its own and reports that failure itself).
 *
 * A prepared socket waits while the user reads or types, and servers close connections that send
 * nothing: Node's answers "408 Request Timeout" after its 60 s headers timeout, and that answer,
 * unread in the socket's buffer, was taken for the first request's response (a failed attempt and
 * a retry). So a socket the server writes to or closes before any request is dropped, and one
 * that has waited `maxIdleMs` is replaced by a fresh one, for a bounded while (`refreshes` times:
 * an idle REPL does not hold a connection open forever; after that the request connects itself).
 */
import type { Agent } from 'node:http';
import type { Socket } from 'node:net';

type AgentClass = new (options: { keepAlive: boolean }) => Agent;
type ConnectionOptions = { host?: string | null; port?: number | string | null };
type CreateConnection = (options: ConnectionOptions, callback?: unknown) => Socket;

/** Sockets handed to a request from the prepared set: a reset before the answer means it went stale. */
export type PreparedAgent = Agent & {
  /** Opens a connection to `host:port` for the next request there, unless one is open or prepared. */
  prepare(host: string, port: number): void;
  /** Whether `socket` came from `prepare` (a reset on it is the server having closed it idle). */
  wasPrepared(socket: Socket | null | undefined): boolean;
};

export type PreparedSocketTimes = {
  /** How long a prepared socket waits before it is replaced: well inside servers' idle timeouts. */
  maxIdleMs: number;
  /** How many times a waiting socket is replaced before the agent stops preparing one. */
  refreshes: number;
};

const DEFAULT_TIMES: PreparedSocketTimes = { maxIdleMs: 30_000, refreshes: 10 };

type Waiting = { socket: Socket; release(): void };

export function preparedAgent(
  AgentBase: AgentClass,
  times: PreparedSocketTimes = DEFAULT_TIMES,
): PreparedAgent {
  const waiting = new Map<string, Waiting>();
  const handedOut = new WeakSet<Socket>();
  const keyOf = (host: string | null | undefined, port: number | string | null | undefined) =>
    `${host ?? 'localhost'}:${port ?? ''}`;

  class Prepared extends AgentBase {
    prepare(host: string, port: number, refreshesLeft = times.refreshes): void {
      const key = keyOf(host, port);
      if (waiting.has(key) || this.hasSocketFor(key)) return;
      // The options the agent itself would connect with (Agent#createSocket), TLS server name included.
      const options = {
        ...(this as unknown as { options: object }).options,
        host,
        port,
        ...(isIpLiteral(host) ? {} : { servername: host }),
      };
      // https keys its TLS session cache by this name: the prepared handshake's session is reused.
      Object.assign(options, { _agentKey: this.getName(options) });
      const connect = super.createConnection as unknown as CreateConnection;
      let socket: Socket;
      try {
        socket = connect.call(this, options);
      } catch {
        return; // The request will connect itself and report what fails.
      }
      // Not a reason to keep the process alive: a run that ends before it is used just ends.
      socket.unref();
      const release = () => {
        clearTimeout(timer);
        socket.off('readable', drop);
        if (waiting.get(key)?.socket === socket) waiting.delete(key);
      };
      // A failed connect is the request's to report, on its own attempt; here it is only forgotten.
      // Anything the server writes before a request (a 408, a close) means the socket is done for.
      function drop() {
        release();
        socket.destroy();
      }
      const timer = setTimeout(() => {
        drop();
        if (refreshesLeft > 0) this.prepare(host, port, refreshesLeft - 1);
      }, times.maxIdleMs);
      timer.unref();
      socket.on('error', release);
      socket.once('close', release);
      socket.on('readable', drop);
      waiting.set(key, { socket, release });
    }

    wasPrepared(socket: Socket | null | undefined): boolean {
      return socket ? handedOut.has(socket) : false;
    }

    override createConnection(...args: unknown[]): Socket {
      const options = (args[0] ?? {}) as ConnectionOptions;
      const key = keyOf(options.host, options.port);
      const prepared = waiting.get(key);
      if (prepared) {
        // Its listeners go: the request's parser reads it from here on.
        prepared.release();
        const ready = prepared.socket;
        if (!ready.destroyed && ready.writable && ready.readableLength === 0) {
          ready.ref();
          handedOut.add(ready);
          return ready;
        }
        ready.destroy();
      }
      const connect = super.createConnection as unknown as (...a: unknown[]) => Socket;
      return connect.apply(this, args);
    }

    /** A kept-alive or busy socket to the host makes a prepared one pointless. */
    private hasSocketFor(key: string): boolean {
      const pools = [this.freeSockets, this.sockets] as Record<string, unknown[] | undefined>[];
      // Pools are keyed `host:port:localAddress…` (Agent#getName).
      return pools.some((pool) =>
        Object.keys(pool).some((name) => name.startsWith(`${key}:`) && (pool[name]?.length ?? 0) > 0),
      );
    }
  }
  return new Prepared({ keepAlive: true }) as PreparedAgent;
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
