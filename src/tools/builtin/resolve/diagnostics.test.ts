/**
 * An accepted structural rewrite is a write like any other: the new errors it causes come with
 * resolve's result, from a real typescript-language-server.
 */
import { afterAll, expect, test } from 'vitest';
import { pathWithServers, TS_PROJECT, writeProject } from '../../../services/lsp/test-fixtures';
import { SessionServices } from '../../session-services';
import { type AstEditOutput, astEditTool } from '../ast-edit';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { resolveTool } from './index';

const root = writeProject(TS_PROJECT, 'yoke-resolve-lsp-');
const env = { ...process.env, PATH: pathWithServers() };
// A cold server on a loaded test machine must not turn the check late.
const lsp = { trusted: false, settings: { diagnosticsWaitMs: 60_000 } };
const context = makeTestContext({
  cwd: root,
  projectRoot: root,
  env,
  services: new SessionServices({ env, lsp }),
});
afterAll(() => context.services.dispose());

test('accepting a rewrite that breaks a type reports exactly the new error', async () => {
  const staged = await callTool<AstEditOutput>(
    astEditTool,
    {
      pattern: 'const area: number = $E',
      rewrite: 'const area: string = $E',
      path: 'src/main.ts',
      language: 'typescript',
    },
    context,
  );
  const accepted = await callTool(resolveTool, { edit_id: staged.data.editId, action: 'accept' }, context);
  const text = resultText(resolveTool, accepted);
  expect(text).toContain('Accepted');
  expect(text).toContain("src/main.ts:5: error TS2322: Type 'number' is not assignable to type 'string'.");
}, 120_000);
