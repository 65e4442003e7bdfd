/**
 * The MCP conformance suite's client scenarios for the HTTP transport, against the built Yoke
 * (test/conformance/yoke-client.mjs drives it through the Agent SDK, and signs in with
 * `yoke mcp login` for the auth scenarios — again when the headless session says a call needs
 * more scope; a userless client needs no sign-in). Pinned to 0.1.13: later versions need Node 22
 * (fs.globSync), earlier ones reuse one SDK Server across requests, which the pinned SDK refuses.
 * Not run here: sse-retry. Yoke honours the server's `retry:` field and resumes with Last-Event-ID
 * (src/mcp/sse-retry.test.ts proves both with fake timers), but the scenario scores the
 * reconnection's arrival in a 450–700 ms window, a timing threshold that a loaded machine fails;
 * on a quiet one it passes when run by hand:
 *   node node_modules/@modelcontextprotocol/conformance/dist/index.js client \
 *     --command "node test/conformance/yoke-client.mjs" --scenario sse-retry
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const SUITE = join(require.resolve('@modelcontextprotocol/conformance/package.json'), '..', 'dist/index.js');
const CLIENT = join(import.meta.dirname, '../conformance/yoke-client.mjs');

// Each scenario starts four Node processes or more (the suite, the client, the Agent SDK's Yoke,
// `yoke mcp login`): ~3 s alone, but up to 26 s was measured on the 2-core machine with other
// builds running, too near vitest's 30 s.
describe('MCP conformance, client scenarios over streamable HTTP', { timeout: 120_000 }, () => {
  it.each([
    'initialize',
    'tools_call',
    'elicitation-sep1034-client-defaults',
    'auth/metadata-default',
    'auth/metadata-var1',
    'auth/metadata-var2',
    'auth/metadata-var3',
    'auth/basic-cimd',
    'auth/scope-from-www-authenticate',
    'auth/scope-from-scopes-supported',
    'auth/scope-omitted-when-undefined',
    'auth/scope-step-up',
    'auth/scope-retry-limit',
    'auth/client-credentials-basic',
    'auth/client-credentials-jwt',
    'auth/token-endpoint-auth-basic',
    'auth/token-endpoint-auth-post',
    'auth/token-endpoint-auth-none',
    'auth/resource-mismatch',
    'auth/pre-registration',
    'auth/2025-03-26-oauth-metadata-backcompat',
    'auth/2025-03-26-oauth-endpoint-fallback',
  ])('%s passes', async (scenario) => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [SUITE, 'client', '--command', `${process.execPath} ${CLIENT}`, '--scenario', scenario],
      { cwd: join(import.meta.dirname, '../..') },
    );
    // The suite prints its report on stdout or stderr depending on the version; both are read.
    const report = stdout + stderr;
    expect(report).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    expect(report).toContain('OVERALL: PASSED');
  });
});
