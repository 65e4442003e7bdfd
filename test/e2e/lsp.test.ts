/**
 * Code intelligence through `yoke -p` on a real typescript-language-server: an Edit that breaks
 * the build says so in its own result, the `lsp` tool answers a definition, `lsp_rename` renames
 * across files, and the run ends with its server shut down.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathWithServers, TS_PROJECT, writeProject } from '../../src/services/lsp/test-fixtures';
import { lastToolResultBlock, mockEnv, runYoke } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

/** The text of the tool result the `index`-th request carried last. */
const lastToolResult = (index: number) => JSON.stringify(lastToolResultBlock(ws.server, index).content);

describe('language servers in yoke -p', () => {
  it('reports the error an Edit introduces, answers lsp, renames with lsp_rename', async () => {
    const cwd = writeProject(TS_PROJECT);
    ws.server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'src/main.ts' } }],
        },
      },
      {
        match: { lastToolResultContains: 'totalArea' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'e1',
              name: 'Edit',
              input: {
                file_path: 'src/main.ts',
                old_string: 'export const area: number',
                new_string: 'export const area: string',
              },
            },
          ],
        },
      },
      {
        match: { lastToolResultContains: 'Edited' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'l1',
              name: 'lsp',
              input: { action: 'definition', file: 'src/main.ts', line: 2, symbol: 'totalArea' },
            },
          ],
        },
      },
      {
        match: { lastToolResultContains: 'definition of totalArea' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'n1',
              name: 'lsp_rename',
              input: { file: 'src/total.ts', line: 4, symbol: 'totalArea', new_name: 'sumOfAreas' },
            },
          ],
        },
      },
      { match: { lastToolResultContains: 'Renamed' }, reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const settings = JSON.stringify({ lsp: { diagnosticsWaitMs: 60_000 } });
    const { code, stdout, stderr } = await runYoke(
      ['-p', 'change the type of area', '--permission-mode', 'acceptEdits', '--settings', settings],
      { cwd, env: { ...mockEnv(ws.server.url, ws.home), PATH: pathWithServers() }, timeoutMs: 120_000 },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('done\n');
    expect(ws.server.requests).toHaveLength(5);
    expect(lastToolResult(2)).toContain(
      "New diagnostics after this write:\\nsrc/main.ts:5: error TS2322: Type 'number' is not assignable to type 'string'.",
    );
    expect(lastToolResult(3)).toContain(
      'src/total.ts:4: export function totalArea(shapes: Shape[]): number {',
    );
    expect(lastToolResult(4)).toContain('Renamed totalArea to sumOfAreas in 2 files');
    expect(await readFile(join(cwd, 'src/main.ts'), 'utf8')).toContain(
      "import { sumOfAreas } from './total.js';",
    );
  });
});
