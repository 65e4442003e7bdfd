import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseRule } from '../../../permissions/rule-string';
import { emptyPermissionContext, type ToolPermissionContext } from '../../../permissions/types';
import {
  PY_PROJECT,
  pathWithServers,
  REAL_SERVER_SUITE,
  TS_PROJECT,
  writeProject,
} from '../../../services/lsp/test-fixtures';
import type { ToolUseContext } from '../../context';
import { SessionServices } from '../../session-services';
import { readTool } from '../read';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { lspRenameTool } from '.';

function projectContext(files: Record<string, string>, permissions?: ToolPermissionContext): ToolUseContext {
  const root = writeProject(files);
  const env = { ...process.env, PATH: pathWithServers() };
  const services = new SessionServices({
    env,
    lsp: { trusted: false, settings: { diagnosticsWaitMs: 60_000 } },
  });
  return makeTestContext({
    cwd: root,
    projectRoot: root,
    env,
    services,
    ...(permissions ? { getPermissionContext: () => permissions } : {}),
  });
}

const read = (context: ToolUseContext, file: string) => readFileSync(join(context.cwd, file), 'utf8');
const rename = async (context: ToolUseContext, input: Record<string, unknown>) =>
  resultText(lspRenameTool, await callTool(lspRenameTool, input, context));

describe('lsp_rename on a real typescript-language-server', REAL_SERVER_SUITE, () => {
  test('renames a class across three files, and nothing else', async () => {
    const context = projectContext(TS_PROJECT);
    try {
      await callTool(readTool, { file_path: join(context.cwd, 'src/main.ts') }, context);
      const text = await rename(context, {
        file: 'src/shape.ts',
        line: 6,
        symbol: 'Square',
        new_name: 'Tile',
      });
      expect(text).toMatch(/^Renamed Square to Tile in 3 files:/);
      expect(read(context, 'src/shape.ts')).toContain('export class Tile implements Shape {');
      expect(read(context, 'src/main.ts')).toBe(TS_PROJECT['src/main.ts']?.replaceAll('Square', 'Tile'));
      expect(read(context, 'src/report.ts')).toContain("import { Tile } from './shape.js';");
      expect(read(context, 'src/total.ts')).toBe(TS_PROJECT['src/total.ts']);
      expect(text).not.toContain('New diagnostics');
      // The model's view of the file it had read follows the rename, so it can keep editing.
      expect(context.readFileState.get(join(context.cwd, 'src/main.ts'))).toBeDefined();
    } finally {
      await context.services.dispose();
    }
  });

  test("the server's refusal is a clear error and nothing changes", async () => {
    const context = projectContext(TS_PROJECT);
    try {
      await expect(
        rename(context, { file: 'src/total.ts', line: 5, symbol: 'reduce', new_name: 'fold' }),
      ).rejects.toThrow(
        /typescript-language-server (cannot rename|refused to rename|offers no rename for) reduce at src\/total\.ts:5/,
      );
      expect(read(context, 'src/total.ts')).toBe(TS_PROJECT['src/total.ts']);
    } finally {
      await context.services.dispose();
    }
  });

  test('an Edit deny rule on one of the files refuses the whole rename', async () => {
    const rule = parseRule('Edit(src/report.ts)', 'deny', 'userSettings');
    if (!rule) throw new Error('rule did not parse');
    const context = projectContext(TS_PROJECT, { ...emptyPermissionContext(), rules: [rule] });
    try {
      const input = { file: 'src/shape.ts', line: 6, symbol: 'Square', new_name: 'Tile' };
      const verdict = await lspRenameTool.checkPermissions(lspRenameTool.inputSchema.parse(input), context);
      expect(verdict).toEqual({
        behavior: 'deny',
        message: expect.stringMatching(
          /^The rename would change src\/report\.ts: Denied by rule Edit\(src\/report\.ts\)/,
        ),
      });
      await expect(rename(context, input)).rejects.toThrow(/src\/report\.ts: Denied by rule/);
      expect(read(context, 'src/shape.ts')).toBe(TS_PROJECT['src/shape.ts']);
    } finally {
      await context.services.dispose();
    }
  });

  test('in acceptEdits mode a rename inside the project is allowed; in default mode it asks as usual', async () => {
    const context = projectContext(TS_PROJECT, { ...emptyPermissionContext(), mode: 'acceptEdits' });
    try {
      const input = lspRenameTool.inputSchema.parse({
        file: 'src/shape.ts',
        line: 6,
        symbol: 'Square',
        new_name: 'Tile',
      });
      expect(await lspRenameTool.checkPermissions(input, context)).toEqual({ behavior: 'allow' });
      const plain = { ...context, getPermissionContext: () => emptyPermissionContext() };
      expect(await lspRenameTool.checkPermissions(input, plain)).toEqual({ behavior: 'passthrough' });
    } finally {
      await context.services.dispose();
    }
  });

  test('a file the model read and someone changed since stops the rename', async () => {
    const context = projectContext(TS_PROJECT);
    try {
      await callTool(readTool, { file_path: join(context.cwd, 'src/report.ts') }, context);
      writeFileSync(join(context.cwd, 'src/report.ts'), `${TS_PROJECT['src/report.ts']}// changed\n`);
      await expect(
        rename(context, { file: 'src/shape.ts', line: 6, symbol: 'Square', new_name: 'Tile' }),
      ).rejects.toThrow(/report\.ts was modified since you last read it/);
      expect(read(context, 'src/shape.ts')).toBe(TS_PROJECT['src/shape.ts']);
    } finally {
      await context.services.dispose();
    }
  });
});

describe('lsp_rename on a real pyright', REAL_SERVER_SUITE, () => {
  test('renames a method at its definition and its uses', async () => {
    const context = projectContext(PY_PROJECT);
    try {
      const text = await rename(context, {
        file: 'app.py',
        line: 3,
        symbol: 'area',
        occurrence: 2,
        new_name: 'surface',
      });
      expect(text).toMatch(/^Renamed area to surface in 2 files:/);
      expect(read(context, 'geometry.py')).toContain('    def surface(self) -> float:');
      expect(read(context, 'app.py')).toContain('total: float = Square(2).surface() + Square(3).surface()');
    } finally {
      await context.services.dispose();
    }
  });
});
