import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseRule } from '../../../permissions/rule-string';
import { emptyPermissionContext } from '../../../permissions/types';
import {
  PY_PROJECT,
  pathWithServers,
  REAL_SERVER_SUITE,
  TS_PROJECT,
  writeProject,
} from '../../../services/lsp/test-fixtures';
import type { ToolUseContext } from '../../context';
import { SessionServices } from '../../session-services';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { lspTool } from '.';

const ask = async (context: ToolUseContext, input: Record<string, unknown>) =>
  resultText(lspTool, await callTool(lspTool, input, context));

function projectContext(
  files: Record<string, string>,
  overrides: Partial<ToolUseContext> = {},
): ToolUseContext {
  const root = writeProject(files);
  const env = { ...process.env, PATH: pathWithServers() };
  return makeTestContext({
    cwd: root,
    projectRoot: root,
    env,
    services: new SessionServices({ env }),
    ...overrides,
  });
}

describe('lsp on a real typescript-language-server', REAL_SERVER_SUITE, () => {
  let context: ToolUseContext;
  beforeAll(() => {
    context = projectContext(TS_PROJECT);
  });
  afterAll(() => context.services.dispose());

  test('definition names the declaring file, line and source line', async () => {
    const text = await ask(context, { action: 'definition', file: 'src/main.ts', line: 4, symbol: 'Square' });
    expect(text).toContain('src/shape.ts:6: export class Square implements Shape {');
  });

  test('type_definition goes from a variable to its class', async () => {
    const text = await ask(context, {
      action: 'type_definition',
      file: 'src/main.ts',
      line: 4,
      symbol: 'square',
    });
    expect(text).toContain('src/shape.ts:6: export class Square');
  });

  test('occurrence picks the n-th match on the line', async () => {
    // Line 5: `export const area: number = totalArea([square, new Square(3)]);` — "quare" occurs
    // in the variable `square` (1st) and in the class `Square` (2nd).
    const first = await ask(context, { action: 'hover', file: 'src/main.ts', line: 5, symbol: 'quare' });
    expect(first).toContain('const square: Square');
    const second = await ask(context, {
      action: 'hover',
      file: 'src/main.ts',
      line: 5,
      symbol: 'quare',
      occurrence: 2,
    });
    expect(second).toContain('new Square(side: number): Square');
  });

  test('references lists every use across files', async () => {
    const text = await ask(context, {
      action: 'references',
      file: 'src/shape.ts',
      line: 6,
      symbol: 'Square',
    });
    expect(text).toContain('src/shape.ts:6:');
    expect(text).toContain('src/main.ts:1: import { Square }');
    expect(text).toContain('src/main.ts:4: const square = new Square(2);');
    expect(text).toContain('src/main.ts:5:');
  });

  test('implementation finds the class behind an interface method', async () => {
    const text = await ask(context, {
      action: 'implementation',
      file: 'src/shape.ts',
      line: 2,
      symbol: 'Shape',
    });
    expect(text).toContain('src/shape.ts:6: export class Square implements Shape {');
  });

  test('hover shows the signature and doc comment', async () => {
    const text = await ask(context, { action: 'hover', file: 'src/total.ts', line: 4, symbol: 'totalArea' });
    expect(text).toContain('function totalArea(shapes: Shape[]): number');
    expect(text).toContain('The summed area of the shapes.');
  });

  test('symbols: the outline of a file, and a workspace search', async () => {
    const outline = await ask(context, { action: 'symbols', file: 'src/shape.ts' });
    expect(outline).toMatch(/interface Shape — line 2/);
    expect(outline).toMatch(/class Square — line 6/);
    expect(outline).toMatch(/ {2}method area — line 8/);
    const found = await ask(context, { action: 'symbols', query: 'totalArea' });
    expect(found).toContain('function totalArea — src/total.ts:4: export function totalArea');
  });

  test('diagnostics of one file and of the project', async () => {
    expect(await ask(context, { action: 'diagnostics', file: 'src/main.ts' })).toBe(
      'src/main.ts: no diagnostics.',
    );
    writeFileSync(join(context.cwd, 'src/broken.ts'), "export const n: number = 'text';\n");
    const project = await ask(context, { action: 'diagnostics', file: '*' });
    expect(project).toContain('5 files checked');
    expect(project).toContain(
      "src/broken.ts:1: error TS2322: Type 'string' is not assignable to type 'number'.",
    );
  });

  test('code actions offer the quick fix for an error at the place', async () => {
    writeFileSync(
      join(context.cwd, 'src/fixme.ts'),
      "import { Square } from './shape.js';\nexport const s = new Squar(1);\n",
    );
    const text = await ask(context, {
      action: 'code_actions',
      file: 'src/fixme.ts',
      line: 2,
      symbol: 'Squar',
    });
    expect(text).toContain("src/fixme.ts:2: error TS2552: Cannot find name 'Squar'. Did you mean 'Square'?");
    expect(text).toContain("- Change spelling to 'Square' [quickfix]");
    expect(text).toContain('src/fixme.ts:2: insert/replace with "Square"');
  });

  test('a symbol absent from the line is an error that shows the line', async () => {
    await expect(
      ask(context, { action: 'hover', file: 'src/main.ts', line: 4, symbol: 'Circle' }),
    ).rejects.toThrow(/"Circle" does not occur on line 4:\nsrc\/main\.ts:4: const square = new Square\(2\);/);
    await expect(
      ask(context, { action: 'hover', file: 'src/main.ts', line: 4, symbol: 'Square', occurrence: 2 }),
    ).rejects.toThrow(/occurs 1 time on line 4, so occurrence 2 does not exist/);
  });

  test('a navigation action without symbol is refused, not guessed', async () => {
    const validation = await lspTool.validateInput(
      lspTool.inputSchema.parse({ action: 'definition', file: 'src/main.ts', line: 4 }),
      context,
    );
    expect(validation).toEqual({ ok: false, message: expect.stringContaining('missing: symbol') });
  });

  test('status names the running server and reload restarts it', async () => {
    await ask(context, { action: 'hover', file: 'src/main.ts', line: 4, symbol: 'square' });
    const status = await ask(context, { action: 'status' });
    expect(status).toMatch(/typescript — root .* — running \(pid \d+/);
    expect(status).toMatch(/pyright: not available — root marker missing: no pyproject\.toml/);
    const reload = await ask(context, { action: 'reload' });
    expect(reload).toContain('typescript — root');
    expect(await ask(context, { action: 'status' })).toContain('none started yet');
    expect(
      await ask(context, { action: 'definition', file: 'src/main.ts', line: 4, symbol: 'Square' }),
    ).toContain('src/shape.ts:6:');
  });
});

describe('lsp and Read deny rules', () => {
  test('a location in a denied file shows its path and line but not its text', async () => {
    const rule = parseRule('Read(src/shape.ts)', 'deny', 'userSettings');
    if (!rule) throw new Error('rule did not parse');
    const permissions = { ...emptyPermissionContext(), rules: [rule] };
    const context = projectContext(TS_PROJECT, { getPermissionContext: () => permissions });
    try {
      const text = await ask(context, {
        action: 'definition',
        file: 'src/main.ts',
        line: 4,
        symbol: 'Square',
      });
      expect(text).toContain('src/shape.ts:6: (not shown: a Read deny rule covers this file)');
      expect(text).not.toContain('implements Shape');
      expect(await ask(context, { action: 'hover', file: 'src/main.ts', line: 4, symbol: 'Square' })).toBe(
        'hover for Square at src/main.ts:4 not shown: it is declared in src/shape.ts, which a Read deny rule covers.',
      );
      // The control: a symbol declared in a readable file still gets its hover.
      expect(
        await ask(context, { action: 'hover', file: 'src/main.ts', line: 5, symbol: 'totalArea' }),
      ).toContain('The summed area of the shapes.');
      const check = await lspTool.checkPermissions({ action: 'symbols', file: 'src/shape.ts' }, context);
      expect(check).toEqual({ behavior: 'deny', message: expect.stringContaining('Read(src/shape.ts)') });
    } finally {
      await context.services.dispose();
    }
  });
});

describe('lsp on a real pyright', REAL_SERVER_SUITE, () => {
  let context: ToolUseContext;
  beforeAll(() => {
    context = projectContext(PY_PROJECT);
  });
  afterAll(() => context.services.dispose());

  test('definition, references and hover across modules', async () => {
    expect(await ask(context, { action: 'definition', file: 'app.py', line: 3, symbol: 'Square' })).toContain(
      'geometry.py:1: class Square:',
    );
    const refs = await ask(context, { action: 'references', file: 'geometry.py', line: 7, symbol: 'area' });
    expect(refs).toContain('geometry.py:7:');
    expect(refs).toContain('app.py:3: total: float = Square(2).area() + Square(3).area()');
    expect(
      await ask(context, { action: 'hover', file: 'app.py', line: 3, symbol: 'area', occurrence: 2 }),
    ).toContain('(method) def area() -> float');
  });

  test('diagnostics report a type error with its rule', async () => {
    writeFileSync(join(context.cwd, 'bad.py'), 'count: int = "three"\n');
    const text = await ask(context, { action: 'diagnostics', file: 'bad.py' });
    expect(text).toMatch(
      /^bad\.py:1: error reportAssignmentType: Type "Literal\['three'\]" is not assignable/,
    );
  });
});
