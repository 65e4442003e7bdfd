// Deferred tool loading (src/tools/deferral). Tokens before the first user word — the system
// prompt, the tool definitions and the deferred-tools list of the first request, estimated as
// the context pipeline does — with 3 MCP servers of 50 tools each (MCP-like schemas of a typical
// size, src/tools/deferral/synthetic-tools.ts), with tool search off (ENABLE_TOOL_SEARCH=false)
// and on (the default budget). Target: the deferred MCP tools cost under 2k tokens. Also what
// loading five tools adds, and the time to build a request with the 150 tools in the pool.
import { importSources, median, verdict } from './_bundle.mjs';

const y = await importSources(
  'tool-search',
  `
export { RequestBuilder } from './src/engine/request-builder';
export { buildSystemPrompt } from './src/engine/system-prompt';
export { estimateRequestTokens } from './src/model/tokens';
export { createBuiltinTools } from './src/tools/builtin';
export { syntheticMcpServerTools } from './src/tools/deferral/synthetic-tools';
export { assembleToolPool } from './src/tools/registry';
export { SessionServices, toolSettings } from './src/tools/session-services';
export { makeContext } from './src/tools/test-support';
export { emptyPermissionContext } from './src/permissions/types';
`,
);

const MODEL = 'claude-sonnet-4-5';
const servers = ['github', 'jira', 'slack'];
const mcpTools = servers.flatMap((server) => y.syntheticMcpServerTools(server, 50));
const system = y.buildSystemPrompt({
  toolNames: y.createBuiltinTools().map((tool) => tool.name),
  environment: { cwd: '/work/project', isGitRepo: true, platform: 'linux', date: '2026-12-01', model: MODEL },
});

/** The first request of a session with these extra tools under this environment. */
function firstRequest(extraTools, env, messages = []) {
  const pool = y.assembleToolPool(y.emptyPermissionContext(), y.createBuiltinTools(), extraTools);
  const services = new y.SessionServices({ env, settings: y.toolSettings({}, env) });
  const context = y.makeContext(pool, { services });
  const builder = new y.RequestBuilder({ systemPrompt: system });
  return { builder, context, request: builder.build(MODEL, { messages, toolUseContext: context }) };
}

const tokens = (request) => y.estimateRequestTokens({ ...request, messages: [] });
const builtinsOnly = tokens(firstRequest([], {}).request);
const off = tokens(firstRequest(mcpTools, { ENABLE_TOOL_SEARCH: 'false' }).request);
const on = firstRequest(mcpTools, {});
const deferred = tokens(on.request);
const mcpOff = off - builtinsOnly;
const mcpOn = deferred - builtinsOnly;

console.log(`built-in tools only: ${builtinsOnly} tokens before the first user word`);
console.log(
  `3 servers / ${mcpTools.length} MCP tools, tool search off: ${off} tokens (MCP schemas ${mcpOff})`,
);
console.log(
  `3 servers / ${mcpTools.length} MCP tools, deferred:        ${deferred} tokens (ToolSearch + names ${mcpOn}), ` +
    `${(mcpOff / mcpOn).toFixed(1)}x less for MCP — target < 2000: ${verdict(mcpOn < 2000)}`,
);

// Five tools loaded: the reference in the history makes the builder send their schemas.
// Every thirtieth tool: five, spread over the three servers.
const loadedNames = mcpTools.filter((_, i) => i % 30 === 0).map((tool) => tool.name);
const history = [
  { type: 'user', uuid: 'u1', timestamp: '', message: { role: 'user', content: 'find my tools' } },
  {
    type: 'user',
    uuid: 'u2',
    timestamp: '',
    message: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: loadedNames.map((name) => ({ type: 'tool_reference', tool_name: name })),
        },
      ],
    },
  },
];
const withLoads = firstRequest(mcpTools, {}, history).request;
const loadedTools = withLoads.tools.filter((tool) => tool.deferLoading);
console.log(
  `after loading ${loadedTools.length} tools: +${tokens(withLoads) - deferred} tokens of schemas ` +
    '(on the Anthropic wire outside the cached prefix: defer_loading)',
);

// The deferral decision runs on every request.
const times = [];
for (let i = 0; i < 400; i++) {
  const began = process.hrtime.bigint();
  on.builder.build(MODEL, { messages: history, toolUseContext: on.context });
  times.push(Number(process.hrtime.bigint() - began) / 1e6);
}
console.log(
  `request build with ${mcpTools.length} deferred tools: median ${median(times.slice(50)).toFixed(3)} ms`,
);
