/**
 * The checks on the connection itself. A URL that passed `checkFetchTarget` may still lead to a
 * private address: a DNS server can answer the check with a public address and the connection
 * with a private one (rebinding), and every redirect hop opens a new connection. So each
 * connection resolves its host through `guardedLookup`, which checks the answer it is about to
 * use, and `guardSocket` checks the peer the socket actually reached before a byte is sent.
 */
import type { LookupFunction, Socket } from 'node:net';
import { checkResolved, type LookupAll, type ResolvedAddress, refusal, resolveHost } from './address-policy';
import { nonPublicReason } from './ip-ranges';

export type ConnectionPolicy = {
  /** The host as the URL names it, for messages. */
  host: string;
  /** The user allowed this host: private addresses are fine. */
  allowed: boolean;
  lookup?: LookupAll;
};

type LookupCallback = Parameters<LookupFunction>[2];

/** A `lookup` for node:net that resolves anew for this connection and refuses a private answer. */
export function guardedLookup(policy: ConnectionPolicy): LookupFunction {
  return (hostname, options, callback: LookupCallback) => {
    const deliver = (addresses: ResolvedAddress[]) => {
      const usable = options.family
        ? addresses.filter((entry) => entry.family === options.family)
        : addresses;
      const list = usable.length > 0 ? usable : addresses;
      if (options.all) (callback as (err: null, addresses: ResolvedAddress[]) => void)(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    };
    resolveHost(hostname, policy.lookup).then(
      (addresses) => {
        try {
          if (!policy.allowed) checkResolved(policy.host, addresses);
        } catch (error) {
          process.nextTick(() => callback(error as Error, '', 0));
          return;
        }
        process.nextTick(() => deliver(addresses));
      },
      (error: Error) => process.nextTick(() => callback(error, '', 0)),
    );
  };
}

/**
 * Checks the address a socket connected to, before the request is written: the listener runs
 * first on `connect`, and destroying the socket there fails the request with the refusal. An
 * address literal never goes through `lookup`, so this is the check that covers it.
 */
export function guardSocket(socket: Socket, host: string): void {
  const check = () => {
    const remote = socket.remoteAddress;
    const reason = remote === undefined ? 'an address that could not be read' : nonPublicReason(remote);
    if (reason) socket.destroy(refusal(host, `connected to ${remote ?? 'a peer'}, ${reason}`));
  };
  if (socket.connecting) socket.prependOnceListener('connect', check);
  else check();
}
