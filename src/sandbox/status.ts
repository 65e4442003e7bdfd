/**
 * The sandbox as `/sandbox` reports it: whether Bash commands run inside and why (or why not),
 * what they may write, what stays read-only in there, the way to the network and to Unix sockets,
 * and which commands run outside. Read from the session's manager, so it is what the next
 * command gets.
 */
import { relative } from 'node:path';
import type { SandboxManager } from './manager';
import type { SandboxPolicy } from './policy';

/** At most this many read-only paths are named; the rest are counted. */
const SHOWN_READ_ONLY = 8;

function headline(manager: SandboxManager): string {
  const state = manager.state;
  if (state.kind === 'active') return 'Sandbox: on — Bash commands run inside bubblewrap';
  if (state.kind === 'unavailable')
    return `Sandbox: unavailable — ${state.reason}. Commands go through the permission prompts.`;
  if (manager.switchedForSession === false)
    return 'Sandbox: off for this session (/sandbox off) — commands go through the permission prompts';
  return 'Sandbox: off — sandbox.enabled is not set (or --no-sandbox); commands go through the permission prompts';
}

function policyLines(policy: SandboxPolicy, projectRoot: string): string[] {
  const named = (path: string) => {
    const inside = relative(projectRoot, path);
    return inside && !inside.startsWith('..') ? inside : path;
  };
  const readOnly = policy.readOnly.map((entry) => named(entry.path));
  const more = readOnly.length - SHOWN_READ_ONLY;
  const network =
    policy.network.kind === 'none'
      ? 'none (sandbox.network.allowedDomains lets named hosts through a filtering proxy)'
      : "only the hosts in sandbox.network.allowedDomains, through Yoke's filtering proxy";
  return [
    `Writable: ${policy.writable.map((root) => root.path).join(', ')}`,
    `Read-only inside them: ${readOnly.slice(0, SHOWN_READ_ONLY).join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    `Network: ${network}; a server on 127.0.0.1 is reachable from inside the same command only`,
    `Unix sockets: ${
      policy.unixSockets.length === 0
        ? 'none can be created (seccomp)'
        : `${policy.unixSockets.join(', ')} (sandbox.network.allowUnixSockets); other sockets the machine has are masked`
    }`,
  ];
}

export function sandboxStatusLines(manager: SandboxManager, projectRoot: string): string[] {
  const { config } = manager;
  const state = manager.state;
  const lines = [headline(manager)];
  if (state.kind === 'active') lines.push(...policyLines(state.policy, projectRoot));
  lines.push(
    `Excluded commands (run outside, with the permission prompts): ${
      config.excludedCommands.length > 0 ? config.excludedCommands.join(', ') : 'none'
    }`,
    `Running a command outside (dangerouslyDisableSandbox): ${
      config.allowUnsandboxedCommands
        ? 'allowed, always with a permission prompt'
        : 'refused (sandbox.allowUnsandboxedCommands: false)'
    }`,
    config.autoAllowBashIfSandboxed
      ? 'Sandboxed commands skip the permission prompt (sandbox.autoAllowBashIfSandboxed), except deny rules and protected files'
      : 'Sandboxed commands still ask as the permission rules say (sandbox.autoAllowBashIfSandboxed is off)',
    'Switch it for this session with /sandbox on or /sandbox off.',
  );
  return lines;
}
