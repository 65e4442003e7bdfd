/**
 * Fixture projects for tests on real language servers: typescript-language-server and pyright
 * come from this repository's devDependencies, put on PATH the way a user's global install would be.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** This repository's node_modules/.bin, where the devDependency servers live. */
export const SERVER_BIN = resolve(import.meta.dirname, '../../../node_modules/.bin');

/**
 * The options of a suite that asks a real language server: the server starts and indexes the
 * project in the suite's first test, 1-3 s alone but up to 16 s measured on the 2-core machine
 * with other builds running, too near vitest's 30 s.
 */
export const REAL_SERVER_SUITE = { timeout: 90_000 };

/** PATH with the servers first (and the rest of the machine's PATH for node itself). */
export function pathWithServers(env: NodeJS.ProcessEnv = process.env): string {
  return `${SERVER_BIN}:${env.PATH ?? ''}`;
}

export function writeProject(files: Record<string, string>, prefix = 'yoke-lsp-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return root;
}

/** A folder holding one executable script named `name` (a fake server binary). */
export function fakeBinary(name: string, script: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-fake-bin-'));
  const path = join(dir, name);
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return dir;
}

/**
 * A fake language server (a node script, for `fakeBinary`): reads LSP's framed messages from
 * stdin and runs `onMessage` on each, with `message` and `send(response)` in scope.
 */
export function fakeServerScript(onMessage: string, prelude = ''): string {
  return `#!${process.execPath}
${prelude}
const send = (message) => {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  process.stdout.write('Content-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
};
let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\\r\\n\\r\\n');
    if (end < 0) return;
    const length = Number(/Content-Length: (\\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    ${onMessage}
  }
});
`;
}

export const TS_PROJECT: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', noEmit: true },
  }),
  'src/shape.ts': [
    '/** Something with an area. */',
    'export interface Shape {',
    '  area(): number;',
    '}',
    '',
    'export class Square implements Shape {',
    '  constructor(readonly side: number) {}',
    '  area(): number {',
    '    return this.side * this.side;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/total.ts': [
    "import type { Shape } from './shape.js';",
    '',
    '/** The summed area of the shapes. */',
    'export function totalArea(shapes: Shape[]): number {',
    '  return shapes.reduce((sum, shape) => sum + shape.area(), 0);',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': [
    "import { Square } from './shape.js';",
    "import { totalArea } from './total.js';",
    '',
    'const square = new Square(2);',
    'export const area: number = totalArea([square, new Square(3)]);',
    '',
  ].join('\n'),
  'src/report.ts': [
    "import { Square } from './shape.js';",
    '',
    'export const unit = new Square(1);',
    '',
  ].join('\n'),
};

export const PY_PROJECT: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "fixture"\nversion = "0.1.0"\n',
  'geometry.py': [
    'class Square:',
    '    """A square with a side."""',
    '',
    '    def __init__(self, side: float) -> None:',
    '        self.side = side',
    '',
    '    def area(self) -> float:',
    '        return self.side * self.side',
    '',
  ].join('\n'),
  'app.py': [
    'from geometry import Square',
    '',
    'total: float = Square(2).area() + Square(3).area()',
    '',
  ].join('\n'),
};
