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

export function preparedAgent(AgentBase: AgentClass): PreparedAgent {
  const waiting = new Map<string, Socket>();
  const handedOut = new WeakSet<Socket>();
  const keyOf = (host: string | null | undefined, port: number | string | null | undefined) =>
    `${host ?? 'localhost'}:${port ?? ''}`;

  class Prepared extends AgentBase {
    prepare(host: string, port: number): void {
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
      const forget = () => {
        if (waiting.get(key) === socket) waiting.delete(key);
      };
      // A failed connect is the request's to report, on its own attempt; here it is only forgotten.
      socket.on('error', forget);
      socket.once('close', forget);
      waiting.set(key, socket);
    }

    wasPrepared(socket: Socket | null | undefined): boolean {
      return socket ? handedOut.has(socket) : false;
    }

    override createConnection(...args: unknown[]): Socket {
      const options = (args[0] ?? {}) as ConnectionOptions;
      const key = keyOf(options.host, options.port);
      const ready = waiting.get(key);
      if (ready) {
        waiting.delete(key);
        if (!ready.destroyed && ready.writable) {
          ready.ref();
          handedOut.add(ready);
          return ready;
        }
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
