/**
 * Acceptance: 200 tools of an in-process SDK MCP server (the Agent SDK's `createSdkMcpServer`,
 * bridged over the control channel) are deferred behind ToolSearch. Over the mock model server,
 * on both wires: names only in the first request, `select:` and keyword loading, the loaded
 * schemas in the next request, and the hint for a call to a tool that was never loaded.
 */
import { createSdkMcpServer, query, type SDKMessage, tool } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { RecordedRequest } from '../../src/testing/mock-server/recorded-request';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { toolSearchTool } from '../../src/tools/builtin/tool-search';
import { syntheticDescriptor } from '../../src/tools/deferral/synthetic-tools';
import { toInputJsonSchema } from '../../src/tools/tool';
import { mockEnv, runYoke, tempProject, YOKE_BIN } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Api = 'anthropic' | 'openai';
const TOOL_COUNT = 200;

/** 200 tools shaped like a real server's, answering with their name and input. */
function crmServer(calls: string[]) {
  return createSdkMcpServer({
    name: 'crm',
    tools: Array.from({ length: TOOL_COUNT }, (_, n) => {
      const descriptor = syntheticDescriptor('crm', n);
      return tool(
        descriptor.name,
        descriptor.description ?? '',
        {
          workspace: z.string().describe('The crm workspace slug.'),
          id: z.string().optional().describe('The record id.'),
          title: z.string().optional().describe('A short title.'),
          limit: z.number().int().optional().describe('Page size.'),
        },
        async (args) => {
          calls.push(descriptor.name);
          return { content: [{ type: 'text', text: `crm/${descriptor.name} ran for ${args.workspace}` }] };
        },
      );
    }),
  });
}

const call = (name: string, input: Record<string, unknown>) => ({
  reply: { content: [{ type: 'tool_use' as const, name, input }] },
});

/** The model's side: select one tool, call it, search by keywords, then call a tool it never loaded. */
const scenario: ScenarioInput = [
  {
    match: { lastUserTextContains: 'invoice' },
    ...call('ToolSearch', { query: 'select:mcp__crm__create_invoice' }),
  },
  {
    match: { lastToolResultContains: 'mcp__crm__create_invoice' },
    ...call('mcp__crm__create_invoice', { workspace: 'acme' }),
  },
  {
    match: { lastToolResultContains: 'ran for acme' },
    ...call('ToolSearch', { query: '+webhook delete', max_results: 2 }),
  },
  {
    match: { lastToolResultContains: 'mcp__crm__delete_webhook' },
    ...call('mcp__crm__archive_alert', { workspace: 'acme' }),
  },
  { match: { lastToolResultContains: 'did not run' }, reply: { content: [{ type: 'text', text: 'Done.' }] } },
];

type Session = { env: Record<string, string>; cwd: string; model: string };

async function newSession(api: Api): Promise<Session> {
  server = await startMockServer({ scenario });
  const home = await tempProject('yoke-e2e-home-');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home };
  const wire =
    api === 'anthropic'
      ? mockEnv(server.url, home)
      : {
          ...mockEnv(server.url, home),
          ANTHROPIC_API_KEY: undefined,
          OPENAI_API_KEY: 'sk-e2e',
          OPENAI_BASE_URL: `${server.url}/v1`,
        };
  for (const [key, value] of Object.entries(wire)) if (value !== undefined) env[key] = value;
  return { env, cwd: await tempProject(), model: api === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1' };
}

/** One SDK query against the session's folder and model; `resume` continues a saved session. */
async function ask(session: Session, prompt: string, resume?: string) {
  const calls: string[] = [];
  let stderr = '';
  const messages: SDKMessage[] = [];
  for await (const message of query({
    prompt,
    options: {
      pathToClaudeCodeExecutable: YOKE_BIN,
      cwd: session.cwd,
      env: session.env,
      model: session.model,
      mcpServers: { crm: crmServer(calls) },
      canUseTool: async (_name, input) => ({ behavior: 'allow', updatedInput: input }),
      stderr: (text) => {
        stderr += text;
      },
      ...(resume ? { resume } : {}),
    },
  })) {
    messages.push(message);
  }
  const requests = (server?.requests ?? []).filter((r) => r.turnIndex !== undefined);
  const result = messages.find((m) => m.type === 'result');
  return { calls, stderr, result, requests };
}

type Body = { tools?: Array<Record<string, unknown>>; system?: unknown; messages?: unknown };
const bodyOf = (request: RecordedRequest | undefined) => (request?.body ?? {}) as Body;
/** A request's tool names, on either wire. */
function toolNames(request: RecordedRequest | undefined): string[] {
  return (bodyOf(request).tools ?? []).map((t) =>
    String((t.function as { name?: string } | undefined)?.name ?? t.name),
  );
}
const mcpNames = (request: RecordedRequest | undefined) =>
  toolNames(request).filter((n) => n.startsWith('mcp__'));

describe.each<Api>(['anthropic', 'openai'])('deferred MCP tools over the %s wire', (api) => {
  it('names them, loads them with ToolSearch, and hints at loading an unloaded one', async () => {
    const session = await newSession(api);
    const { calls, stderr, result, requests } = await ask(session, 'Bill acme: make an invoice');
    expect(result, stderr).toMatchObject({ subtype: 'success', result: 'Done.' });
    expect(requests).toHaveLength(5);
    const [first, second, third, fourth, fifth] = requests;

    // Names only: ToolSearch and a compact list, none of the 200 schemas.
    expect(toolNames(first)).toContain('ToolSearch');
    expect(mcpNames(first)).toEqual([]);
    const firstText = JSON.stringify(bodyOf(first));
    expect(firstText).toContain(`Deferred tools (${TOOL_COUNT})`);
    expect(firstText).toContain('mcp__crm__export_document');

    // select: loaded one schema, which the next request carries after the others, and it ran.
    expect(mcpNames(second)).toEqual(['mcp__crm__create_invoice']);
    const loaded = bodyOf(second).tools?.at(-1);
    if (api === 'anthropic') {
      expect(loaded).toMatchObject({ name: 'mcp__crm__create_invoice', defer_loading: true });
      expect(JSON.stringify(bodyOf(second).messages)).toContain(
        '{"type":"tool_reference","tool_name":"mcp__crm__create_invoice"}',
      );
    } else {
      expect(loaded).toMatchObject({ type: 'function', function: { name: 'mcp__crm__create_invoice' } });
      expect(JSON.stringify(bodyOf(second).messages)).toContain('Loaded mcp__crm__create_invoice');
    }
    expect(toolNames(second).slice(0, -1)).toEqual(toolNames(first));
    expect(calls).toEqual(['create_invoice']);
    expect(mcpNames(third)).toEqual(['mcp__crm__create_invoice']);

    // Keywords with a required term loaded the two best matches (delete_webhook hits both words,
    // then the first by name of those hitting "webhook"); the first load stayed. Sorted by name.
    expect(mcpNames(fourth)).toEqual([
      'mcp__crm__archive_webhook',
      'mcp__crm__create_invoice',
      'mcp__crm__delete_webhook',
    ]);

    // The call to a tool that was never loaded did not run and says how to load it.
    expect(JSON.stringify(bodyOf(fifth).messages)).toContain(
      'mcp__crm__archive_alert is a deferred tool whose schema you have not loaded, so the call did not run. ' +
        'Load it with ToolSearch (query \\"select:mcp__crm__archive_alert\\")',
    );
    expect(calls).toEqual(['create_invoice']);

    // A resumed session sends the same loaded tools, and a loaded tool can be called at once.
    server?.reset([
      {
        match: { lastUserTextContains: 'again' },
        ...call('mcp__crm__delete_webhook', { workspace: 'beta' }),
      },
      {
        match: { lastToolResultContains: 'ran for beta' },
        reply: { content: [{ type: 'text', text: 'Again.' }] },
      },
    ]);
    const sessionId = result && 'session_id' in result ? result.session_id : '';
    const resumed = await ask(session, 'do it again', sessionId);
    expect(resumed.result, resumed.stderr).toMatchObject({ subtype: 'success', result: 'Again.' });
    expect(mcpNames(resumed.requests[0])).toEqual(mcpNames(fourth));
    expect(resumed.calls).toEqual(['delete_webhook']);
  });
});

describe('deferred built-ins (setting toolSearch.deferTools) in yoke -p', () => {
  it('names them, loads one by keyword, and warns once about an ENABLE_TOOL_SEARCH it cannot read', async () => {
    server = await startMockServer({
      scenario: [
        { match: { lastUserTextContains: 'notebook' }, ...call('ToolSearch', { query: 'jupyter notebook' }) },
        {
          match: { lastToolResultContains: 'tool_reference:NotebookEdit' },
          reply: { content: [{ type: 'text', text: 'Ready.' }] },
        },
      ],
    });
    const home = await tempProject('yoke-e2e-home-');
    const settings = JSON.stringify({ toolSearch: { deferTools: ['NotebookEdit', 'WebFetch'] } });
    const run = await runYoke(
      ['-p', 'edit the notebook', '--settings', settings, '--output-format', 'json'],
      {
        cwd: await tempProject(),
        env: { ...mockEnv(server.url, home), ENABLE_TOOL_SEARCH: 'sometimes' },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ result: 'Ready.' });
    expect(run.stderr).toContain(
      'ENABLE_TOOL_SEARCH="sometimes" is not understood; use true, false, auto or auto:N (percent of the context window). Tool search stays on auto.',
    );
    expect(run.stderr.split('ENABLE_TOOL_SEARCH=').length - 1).toBe(1);
    const [first, second] = server.requests.filter((r) => r.turnIndex !== undefined);
    // The built CLI's ToolSearch schema (converted at build time) is what its source says.
    const sentSearch = bodyOf(first).tools?.find((t) => t.name === 'ToolSearch');
    expect(sentSearch?.input_schema).toEqual(toInputJsonSchema(toolSearchTool.inputSchema));
    expect(toolNames(first)).not.toContain('NotebookEdit');
    expect(toolNames(first)).not.toContain('WebFetch');
    expect(JSON.stringify(bodyOf(first).system)).toContain('Deferred tools (2)');
    expect(bodyOf(second).tools?.at(-1)).toMatchObject({ name: 'NotebookEdit', defer_loading: true });
    expect(toolNames(second)).not.toContain('WebFetch');
  });
});
