// The MCP conformance suite's client under test: `node yoke-client.mjs <server-url>`, run by
// `conformance client --scenario …` (which sets MCP_CONFORMANCE_SCENARIO). It drives the built
// Yoke (dist/yoke.js) through the Agent SDK, as a host would: the scenario's server is an HTTP
// `mcpServers` entry, the model is Yoke's mock server, scripted to call the scenario's tools.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { query } from '@anthropic-ai/claude-agent-sdk';

const YOKE = join(import.meta.dirname, '../../dist/yoke.js');
const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';

/** The model's script per scenario: which tool to call once it is offered. */
const SCRIPTS = {
  initialize: [{ reply: { content: [{ type: 'text', text: 'connected' }] } }],
  tools_call: [
    {
      match: { hasTool: 'mcp__conformance__add_numbers' },
      reply: {
        content: [{ type: 'tool_use', name: 'mcp__conformance__add_numbers', input: { a: 5, b: 3 } }],
      },
    },
    { match: { lastToolResultContains: '8' }, reply: { content: [{ type: 'text', text: 'done' }] } },
  ],
  'elicitation-sep1034-client-defaults': [
    {
      match: { hasTool: 'mcp__conformance__test_client_elicitation_defaults' },
      reply: {
        content: [
          { type: 'tool_use', name: 'mcp__conformance__test_client_elicitation_defaults', input: {} },
        ],
      },
    },
    { match: { lastToolResultContains: '' }, reply: { content: [{ type: 'text', text: 'done' }] } },
  ],
  // The tool call's stream closes early; the answer comes on the stream Yoke reopens after the
  // server's `retry:` delay (with Last-Event-ID).
  'sse-retry': [
    {
      match: { hasTool: 'mcp__conformance__test_reconnection' },
      reply: { content: [{ type: 'tool_use', name: 'mcp__conformance__test_reconnection', input: {} }] },
    },
    { match: { lastToolResultContains: '' }, reply: { content: [{ type: 'text', text: 'done' }] } },
  ],
  // The call needs more scope than the first sign-in got: the headless session says to sign in
  // again; the user does (this script), says so, and the call goes through.
  'auth/scope-step-up': [
    {
      match: { hasTool: 'mcp__conformance__test-tool', lastUserTextContains: 'go' },
      reply: { content: [{ type: 'tool_use', name: 'mcp__conformance__test-tool', input: {} }] },
    },
    {
      match: { lastToolResultContains: 'yoke mcp login conformance' },
      reply: { content: [{ type: 'text', text: 'Sign in again, please.' }] },
    },
    {
      match: { lastUserTextContains: 'signed in' },
      reply: { content: [{ type: 'tool_use', name: 'mcp__conformance__test-tool', input: {} }] },
    },
    { match: { lastToolResultContains: 'test' }, reply: { content: [{ type: 'text', text: 'done' }] } },
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'yoke-conformance-'));
const scenarioFile = join(dir, 'scenario.json');
writeFileSync(scenarioFile, JSON.stringify(SCRIPTS[scenario] ?? SCRIPTS.initialize));
const mock = spawn(process.execPath, [YOKE, 'mock-server', '--scenario', scenarioFile, '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Whatever way this script ends, the mock server ends with it: left running, it would hold the
// stderr the suite reads, and the suite would wait for it forever instead of reporting a failure.
process.on('exit', () => mock.kill('SIGTERM'));
const mockUrl = await new Promise((resolve, reject) => {
  mock.once('exit', (code) => reject(new Error(`mock server exited with ${code}`)));
  createInterface({ input: mock.stdout }).on('line', (line) => {
    if (line.startsWith('MOCK_SERVER_URL=')) resolve(line.slice('MOCK_SERVER_URL='.length));
  });
});

const yokeEnv = {
  PATH: process.env.PATH,
  HOME: dir,
  YOKE_HOME: join(dir, 'yoke'),
  CLAUDE_CONFIG_DIR: join(dir, 'claude'),
  ANTHROPIC_API_KEY: 'sk-conformance',
  ANTHROPIC_BASE_URL: mockUrl,
};

// Auth scenarios: the server is added to the user scope and signed in to with `yoke mcp login`,
// this script acting as the browser that opens the printed address. A userless client
// (client_credentials) needs no sign-in: the session fetches its token.
const yoke = (...args) =>
  execFileSync(process.execPath, [YOKE, ...args], { cwd: dir, env: yokeEnv, encoding: 'utf8' });
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const userless = scenario.startsWith('auth/client-credentials');
let loginEnv = yokeEnv;
const login = () =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [YOKE, 'mcp', 'login', 'conformance'], { cwd: dir, env: loginEnv });
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (/^https?:\/\//.test(line)) fetch(line).catch(reject);
    });
    child.stderr.pipe(process.stderr);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`yoke mcp login exited with ${code}`)),
    );
  });
if (userless) {
  // The secret goes into the session's environment, the key into a file the config names.
  const oauth = { grantType: 'client_credentials', clientId: context.client_id };
  if (context.private_key_pem) {
    const keyFile = join(dir, 'client-key.pem');
    writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
    Object.assign(oauth, { privateKeyFile: keyFile, signingAlgorithm: context.signing_algorithm });
  }
  if (context.client_secret) yokeEnv.MCP_CLIENT_SECRET = context.client_secret;
  yoke(
    'mcp',
    'add-json',
    '-s',
    'user',
    'conformance',
    JSON.stringify({ type: 'http', url: serverUrl, oauth }),
  );
} else if (scenario.startsWith('auth/')) {
  // A scenario whose authorization server has no registration endpoint hands out the client it
  // registered by hand: its id goes into the server's config, its secret into the login's env.
  const oauth = context.client_id ? { clientId: context.client_id } : {};
  // basic-cimd's authorization server takes client ID metadata documents and expects this client's
  // at this address (it checks the client id it is given; it does not fetch the document).
  if (scenario === 'auth/basic-cimd')
    oauth.clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';
  const entry = { type: 'http', url: serverUrl, ...(Object.keys(oauth).length > 0 ? { oauth } : {}) };
  yoke('mcp', 'add-json', '-s', 'user', 'conformance', JSON.stringify(entry));
  loginEnv = { ...yokeEnv, ...(context.client_secret ? { MCP_CLIENT_SECRET: context.client_secret } : {}) };
  await login();
}

let q;
let resultArrived;
const nextResult = () =>
  new Promise((resolve) => {
    resultArrived = resolve;
  });
/** A tool result told the user to sign in again (`yoke mcp login`), as a headless session does. */
let askedToSignIn = false;
const userMessage = (content) => ({
  type: 'user',
  message: { role: 'user', content },
  parent_tool_use_id: null,
  session_id: '',
});
async function* prompts() {
  // Sent once the server is connected, so the model's first request already has its tools.
  for (;;) {
    const statuses = (await q?.mcpServerStatus()) ?? [];
    const server = statuses.find((s) => s.name === 'conformance');
    if (server && server.status !== 'pending') break;
  }
  let result = nextResult();
  yield userMessage('go');
  await result;
  if (askedToSignIn) {
    // The user signs in again, as the line said, and asks for the same thing.
    await login();
    result = nextResult();
    yield userMessage('signed in; try again');
    await result;
  }
}

let code = 1;
try {
  q = query({
    prompt: prompts(),
    options: {
      pathToClaudeCodeExecutable: YOKE,
      cwd: dir,
      ...(scenario.startsWith('auth/')
        ? {}
        : { mcpServers: { conformance: { type: 'http', url: serverUrl } } }),
      allowedTools: ['mcp__conformance'],
      // The user accepts the server's form as it comes: Yoke fills in the schema's defaults.
      ...(scenario.startsWith('elicitation')
        ? { onElicitation: async () => ({ action: 'accept', content: {} }) }
        : {}),
      env: yokeEnv,
      stderr: (text) => process.stderr.write(text),
    },
  });
  for await (const message of q) {
    if (
      message.type === 'user' &&
      JSON.stringify(message.message.content).includes('yoke mcp login conformance')
    )
      askedToSignIn = true;
    if (message.type === 'result') {
      code = message.is_error ? 1 : 0;
      resultArrived?.();
    }
  }
} finally {
  mock.kill('SIGTERM');
}
process.exit(code);
