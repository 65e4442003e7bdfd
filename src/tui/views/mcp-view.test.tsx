import '../testing/hide-ci';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { McpServerReport } from '../../mcp/manager';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import { McpView, type McpViewActions } from './mcp-view';

afterAll(restoreCi);

/** Two servers whose statuses the test changes, telling the view as the manager would. */
function servers() {
  const reports: McpServerReport[] = [
    {
      name: 'docs',
      status: 'needs-auth',
      source: 'user',
      transport: 'http',
      error: 'the server asks for authorization (HTTP 401)',
      tools: [],
      prompts: [],
    },
    {
      name: 'fs',
      status: 'failed',
      source: 'project',
      transport: 'stdio',
      error: 'exited',
      tools: [],
      prompts: [],
    },
  ];
  const listeners = new Set<() => void>();
  return {
    statuses: () => reports.map((r) => ({ ...r })),
    onChange: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(name: string, change: Partial<McpServerReport>) {
      Object.assign(reports.find((r) => r.name === name) as McpServerReport, change);
      for (const listener of listeners) listener();
    },
  };
}

describe('the /mcp view', () => {
  it('signs in to a needs-auth server: shows the address, then the new status', async () => {
    const list = servers();
    let finish: () => void = () => {};
    const actions: McpViewActions = {
      signIn: (name, onUrl) => {
        onUrl(new URL('https://auth.example/authorize?client_id=c1'), { opened: true, with: 'xdg-open' });
        return new Promise((resolve) => {
          finish = () => {
            list.set(name, { status: 'connected', tools: [{ name: 'secret' }] as never, error: undefined });
            resolve('signed-in');
          };
        });
      },
      reconnect: async () => {},
    };
    const view = renderView(<McpView servers={list} actions={actions} onClose={() => {}} />);
    expect(view.frame()).toContain('MCP servers (0 of 2 connected)');
    expect(view.frame()).toMatch(/❯ docs {2}user · http {2}needs-auth: the server asks for authorization/);
    expect(view.frame()).toMatch(/fs {2}project · stdio {2}failed: exited/);
    view.type('\r');
    await vi.waitFor(() => expect(view.frame()).toContain('https://auth.example/authorize?client_id=c1'));
    expect(view.frame()).toContain('Open this address in your browser to sign in to "docs":');
    expect(view.frame()).toContain('(opened with xdg-open) · waiting for the browser · Esc cancels');
    finish();
    await vi.waitFor(() => expect(view.frame()).toContain('Signed in to docs; connected · 1 tool.'));
    expect(view.frame()).toContain('MCP servers (1 of 2 connected)');
  });

  it('Esc cancels a sign-in that waits for the browser, then closes; r and Enter reconnect', async () => {
    const list = servers();
    const reconnected: string[] = [];
    const closed: boolean[] = [];
    const actions: McpViewActions = {
      signIn: (_name, onUrl, signal) => {
        onUrl(new URL('https://auth.example/a'), { opened: false, why: 'no browser found (set $BROWSER)' });
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('the sign-in was cancelled'))),
        );
      },
      reconnect: async (name) => {
        reconnected.push(name);
      },
    };
    const view = renderView(<McpView servers={list} actions={actions} onClose={() => closed.push(true)} />);
    view.type('\r');
    await vi.waitFor(() => expect(view.frame()).toContain('(no browser found (set $BROWSER))'));
    view.type('\x1b');
    await vi.waitFor(() =>
      expect(view.frame()).toContain('Sign-in to docs failed: the sign-in was cancelled'),
    );
    expect(closed).toEqual([]);
    view.type('\x1b[B');
    view.type('\r');
    await vi.waitFor(() => expect(view.frame()).toContain('fs: failed: exited'));
    view.type('r');
    await vi.waitFor(() => expect(reconnected).toEqual(['fs', 'fs']));
    view.type('\x1b');
    expect(closed).toEqual([true]);
  });
});
