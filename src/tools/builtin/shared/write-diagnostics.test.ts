import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  PY_PROJECT,
  pathWithServers,
  REAL_SERVER_SUITE,
  TS_PROJECT,
  writeProject,
} from '../../../services/lsp/test-fixtures';
import type { ToolUseContext } from '../../context';
import { SessionServices } from '../../session-services';
import { editTool } from '../edit';
import { readTool } from '../read';
import { writeTool } from '../write';
import { callTool, makeTestContext, resultText } from './test-context';

// The wait is long here: a cold server under a loaded test machine must not turn a check late
// (the late path has its own test, with no wait at all).
const PATIENT = { trusted: false, settings: { diagnosticsWaitMs: 60_000 } };

function projectContext(
  files: Record<string, string>,
  lsp: ConstructorParameters<typeof SessionServices>[0]['lsp'] = PATIENT,
) {
  const root = writeProject(files);
  const env = { ...process.env, PATH: pathWithServers() };
  return makeTestContext({ cwd: root, projectRoot: root, env, services: new SessionServices({ env, lsp }) });
}

async function edit(context: ToolUseContext, file: string, old_string: string, new_string: string) {
  const file_path = join(context.cwd, file);
  await callTool(readTool, { file_path }, context);
  return resultText(editTool, await callTool(editTool, { file_path, old_string, new_string }, context));
}

const TYPE_ERROR = "src/main.ts:5: error TS2322: Type 'number' is not assignable to type 'string'.";

// The tests are the steps of one editing session on one server, each starting from the file the
// step before left: run in their order even under --sequence.shuffle (shuffled, 3 of them failed).
describe('diagnostics on write, typescript-language-server', { ...REAL_SERVER_SUITE, shuffle: false }, () => {
  let context: ToolUseContext;
  beforeAll(() => {
    context = projectContext(TS_PROJECT);
  });
  afterAll(() => context.services.dispose());

  test('an edit that introduces a type error reports exactly that error', async () => {
    const text = await edit(context, 'src/main.ts', 'export const area: number', 'export const area: string');
    expect(text).toContain(`New diagnostics after this write:\n${TYPE_ERROR}`);
    expect(text.match(/error TS/g)).toHaveLength(1);
  });

  test('a second, unrelated edit does not repeat it, even when the error moved down', async () => {
    const text = await edit(
      context,
      'src/main.ts',
      'const square = new Square(2);',
      '// two\nconst square = new Square(2);',
    );
    expect(text).not.toContain('New diagnostics');
    expect(text).not.toContain('TS2322');
  });

  test('a second identical error is new', async () => {
    const text = await edit(context, 'src/main.ts', '// two\n', 'export const other: string = 2;\n');
    expect(text).toContain("src/main.ts:4: error TS2322: Type 'number' is not assignable to type 'string'.");
    expect(text.match(/error TS/g)).toHaveLength(1);
  });

  test('the fix clears it, and the same error coming back is reported again', async () => {
    await edit(context, 'src/main.ts', 'export const other: string = 2;\n', '');
    const fixed = await edit(
      context,
      'src/main.ts',
      'export const area: string',
      'export const area: number',
    );
    expect(fixed).not.toContain('New diagnostics');
    const again = await edit(
      context,
      'src/main.ts',
      'export const area: number',
      'export const area: string',
    );
    expect(again).toContain(TYPE_ERROR);
  });

  test('a signature change reports the new errors in the files that import it', async () => {
    const text = await edit(
      context,
      'src/total.ts',
      'shapes: Shape[]): number',
      'shapes: Shape[], scale: number): number',
    );
    expect(text).not.toContain('New diagnostics after this write');
    expect(text).toContain(
      'New diagnostics in files that import it:\nsrc/main.ts:5: error TS2554: Expected 2 arguments, but got 1.',
    );
  });

  test('errors a file had before the first write are not reported as new', async () => {
    const path = join(context.cwd, 'src/old.ts');
    await callTool(writeTool, { file_path: path, content: "export const broken: number = 'x';\n" }, context);
    const other = projectContext({
      ...TS_PROJECT,
      'src/old.ts': "export const broken: number = 'x';\nexport const y = 1;\n",
    });
    try {
      const text = await edit(other, 'src/old.ts', 'export const y = 1;', 'export const y = 2;');
      expect(text).not.toContain('New diagnostics');
    } finally {
      await other.services.dispose();
    }
  });
});

describe('diagnostics on write, pyright', REAL_SERVER_SUITE, () => {
  test('a Write that breaks a type reports it; a file no server handles gets nothing appended', async () => {
    const context = projectContext(PY_PROJECT);
    try {
      const path = join(context.cwd, 'geometry.py');
      await callTool(readTool, { file_path: path }, context);
      const content = readFileSync(path, 'utf8').replace('return self.side * self.side', 'return "big"');
      const text = resultText(writeTool, await callTool(writeTool, { file_path: path, content }, context));
      expect(text).toMatch(
        /New diagnostics after this write:\ngeometry\.py:8: error reportReturnType: Type "Literal\['big'\]" is not assignable to return type "float"/,
      );
      const notes = resultText(
        writeTool,
        await callTool(writeTool, { file_path: join(context.cwd, 'notes.txt'), content: 'x' }, context),
      );
      expect(notes).toBe(`Created ${join(context.cwd, 'notes.txt')}.`);
    } finally {
      await context.services.dispose();
    }
  });
});

describe('diagnostics on write, switched off or without a server', () => {
  test('a check that outlives the wait is reported with the next write, not lost', async () => {
    const context = projectContext(TS_PROJECT, { trusted: false, settings: { diagnosticsWaitMs: 0 } });
    try {
      const first = await edit(
        context,
        'src/main.ts',
        'export const area: number',
        'export const area: string',
      );
      expect(first).toContain('did not answer within 0 ms');
      expect(first).not.toContain('TS2322');
      await context.services.lsp.settled();
      const second = await edit(
        context,
        'src/main.ts',
        'const square = new Square(2);',
        'const square = new Square(4);',
      );
      expect(second).toContain(`New diagnostics from an earlier write (reported late):\n${TYPE_ERROR}`);
    } finally {
      await context.services.dispose();
    }
  });

  test('lsp.diagnosticsOnWrite false leaves the result as it was and starts no server', async () => {
    const context = projectContext(TS_PROJECT, { trusted: false, settings: { diagnosticsOnWrite: false } });
    const text = await edit(context, 'src/main.ts', 'export const area: number', 'export const area: string');
    expect(text).not.toContain('New diagnostics');
    expect(context.services.lsp.status()).toEqual([]);
    await context.services.dispose();
  });

  test('no root marker: nothing is appended and no server starts', async () => {
    const { 'tsconfig.json': _, ...files } = TS_PROJECT;
    const context = projectContext(files);
    const text = await edit(context, 'src/main.ts', 'export const area: number', 'export const area: string');
    expect(text).not.toContain('New diagnostics');
    expect(context.services.lsp.status()).toEqual([]);
    await context.services.dispose();
  });
});
