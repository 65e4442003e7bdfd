/**
 * The live /mcp view: each MCP server with its source, transport and status, updated as they
 * change. Enter on a server that needs authorization signs in (the OAuth flow of `yoke mcp login`:
 * the address is shown and opened in a browser where there is one, the browser comes back to a
 * loopback callback) and reconnects it; Enter on a failed one, or `r` on any, reconnects it. Esc
 * cancels a sign-in that waits for the browser, then closes the view.
 */
import { Box, Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { BrowserOpening } from '../../interactive/open-browser';
import type { McpServerReport } from '../../mcp/manager';
import { serverStatusText } from '../../mcp/status-text';
import { SelectList } from './select-list';
import { useStyle } from './style-context';

export type McpServers = {
  statuses(): McpServerReport[];
  onChange(listener: () => void): () => void;
};

export type McpViewActions = {
  /** Resolves when signed in (and the server reconnected); rejects with why it did not. */
  signIn(
    name: string,
    onUrl: (url: URL, browser: BrowserOpening) => void,
    signal: AbortSignal,
  ): Promise<'signed-in' | 'not-needed'>;
  reconnect(name: string): Promise<void>;
};

type Activity =
  | { kind: 'idle'; note?: string }
  | { kind: 'signing-in'; name: string; url?: URL; browser?: BrowserOpening }
  | { kind: 'reconnecting'; name: string };

export function McpView({
  servers,
  actions,
  onClose,
}: {
  servers: McpServers;
  actions: McpViewActions;
  onClose(): void;
}) {
  const style = useStyle();
  const [reports, setReports] = useState(() => servers.statuses());
  const [activity, setActivity] = useState<Activity>({ kind: 'idle' });
  const signInAbort = useRef<AbortController | undefined>(undefined);
  useEffect(() => {
    setReports(servers.statuses());
    return servers.onChange(() => setReports(servers.statuses()));
  }, [servers]);
  useEffect(() => () => signInAbort.current?.abort(), []);

  const reconnect = (name: string) => {
    setActivity({ kind: 'reconnecting', name });
    actions.reconnect(name).then(
      () => {
        const now = servers.statuses().find((s) => s.name === name);
        setActivity({ kind: 'idle', note: `${name}: ${now ? serverStatusText(now) : 'gone'}` });
      },
      (error: Error) => setActivity({ kind: 'idle', note: `${name} could not reconnect: ${error.message}` }),
    );
  };

  const signIn = (name: string) => {
    const abort = new AbortController();
    signInAbort.current = abort;
    setActivity({ kind: 'signing-in', name });
    actions
      .signIn(name, (url, browser) => setActivity({ kind: 'signing-in', name, url, browser }), abort.signal)
      .then(
        (outcome) => {
          const now = servers.statuses().find((s) => s.name === name);
          const status = now ? serverStatusText(now) : 'gone';
          setActivity({
            kind: 'idle',
            note:
              outcome === 'not-needed'
                ? `${name} let Yoke in without signing in; ${status}.`
                : `Signed in to ${name}; ${status}.`,
          });
        },
        (error: Error) => setActivity({ kind: 'idle', note: `Sign-in to ${name} failed: ${error.message}` }),
      )
      .finally(() => {
        if (signInAbort.current === abort) signInAbort.current = undefined;
      });
  };

  const busy = activity.kind !== 'idle';
  return (
    <SelectList
      title={`MCP servers (${reports.filter((r) => r.status === 'connected').length} of ${reports.length} connected)`}
      items={reports}
      keyOf={(r) => r.name}
      row={(r) => `${r.name}  ${style.dim(`${r.source} · ${r.transport}`)}  ${serverStatusText(r)}`}
      onPick={(r) => {
        if (busy) return;
        if (r.status === 'needs-auth') signIn(r.name);
        else if (r.status !== 'disabled') reconnect(r.name);
      }}
      onClose={() => {
        if (signInAbort.current) signInAbort.current.abort();
        else onClose();
      }}
      onKey={(event, r) => {
        if (event.type !== 'text' || event.text !== 'r' || !r) return false;
        if (!busy && r.status !== 'disabled') reconnect(r.name);
        return true;
      }}
      empty="No MCP servers in this session (`yoke mcp add` configures one)."
      hint="↑/↓ to choose · Enter: sign in (needs-auth) or reconnect · r to reconnect · Esc to close"
      footer={() => <ActivityLines activity={activity} />}
    />
  );
}

function ActivityLines({ activity }: { activity: Activity }) {
  const style = useStyle();
  switch (activity.kind) {
    case 'idle':
      return activity.note ? <Text>{activity.note}</Text> : null;
    case 'reconnecting':
      return <Text>{style.dim(`Reconnecting ${activity.name}…`)}</Text>;
    case 'signing-in':
      if (!activity.url) return <Text>{style.dim(`Starting the sign-in to ${activity.name}…`)}</Text>;
      return (
        <Box flexDirection="column">
          <Text>{`Open this address in your browser to sign in to "${activity.name}":`}</Text>
          <Text>{activity.url.href}</Text>
          <Text>
            {style.dim(
              activity.browser?.opened
                ? `(opened with ${activity.browser.with}) · waiting for the browser · Esc cancels`
                : `(${activity.browser?.why ?? 'not opened'}) · waiting for the browser · Esc cancels`,
            )}
          </Text>
        </Box>
      );
  }
}
