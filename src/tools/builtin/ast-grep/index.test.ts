import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRule } from '../../../permissions/rule-string';
import { emptyPermissionContext } from '../../../permissions/types';
import { callTool, makeTempDir, makeTestContext, resultText } from '../shared/test-context';
import { type AstGrepInput, type AstGrepOutput, astGrepTool } from './index';

let root: string;

function file(relativePath: string, content: string): string {
  const path = join(root, relativePath);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

beforeEach(async () => {
  root = await makeTempDir('yoke-ast-grep-');
  execFileSync('git', ['init', '-q'], { cwd: root });
});

async function astGrep(input: AstGrepInput, deny: string[] = []) {
  const rules = deny.map((text) => parseRule(text, 'deny', 'projectSettings')).filter((r) => r !== undefined);
  const permissionContext = { ...emptyPermissionContext(), rules };
  const context = makeTestContext({ cwd: root, getPermissionContext: () => permissionContext });
  const result = await callTool<AstGrepOutput>(astGrepTool, input, context);
  return { data: result.data, text: resultText(astGrepTool, result) };
}

const texts = (data: AstGrepOutput) => data.matches.map((m) => m.text);

describe('ast_grep', () => {
  it('binds $NAME to one node and never matches inside strings or comments', async () => {
    file(
      'src/a.ts',
      [
        'console.log(user.name);',
        '// console.log(inComment);',
        'const s = "console.log(inString)";',
        'console.log(a, b);',
      ].join('\n'),
    );
    const { data, text } = await astGrep({ pattern: 'console.log($X)' });
    expect(texts(data)).toEqual(['console.log(user.name)']);
    expect(text).toBe('src/a.ts:1:1: console.log(user.name)');
  });

  it('matches a sequence with $$$ARGS and any node with $_', async () => {
    file('a.js', 'f();\nf(1);\nf(1, 2, 3);\ng(1);\n');
    expect(texts((await astGrep({ pattern: 'f($$$ARGS)' })).data)).toEqual(['f()', 'f(1)', 'f(1, 2, 3)']);
    expect(texts((await astGrep({ pattern: '$_(1)' })).data)).toEqual(['f(1)', 'g(1)']);
  });

  it('requires a repeated metavariable to capture the same text', async () => {
    file('a.py', 'if x == x:\n    pass\nif x == y:\n    pass\n');
    const { data } = await astGrep({ pattern: '$A == $A' });
    expect(texts(data)).toEqual(['x == x']);
  });

  it("finds the seed's Dart example", async () => {
    file(
      'lib/w.dart',
      'void f() {\n  if (controller != null) controller.dispose();\n  if (a != null) b.dispose();\n}\n',
    );
    const { data } = await astGrep({ pattern: 'if ($X != null) $X.dispose();' });
    expect(texts(data)).toEqual(['if (controller != null) controller.dispose();']);
  });

  it('reads a fragment by the ladder of contexts: a call inside a function, not a declaration', async () => {
    // At the top level of a C file `foo(x);` parses as an old-style declaration; in a body, a call.
    file('m.c', 'void f(void) { foo(1); }\nint g(void) { return foo(2) + 1; }\n');
    const { data } = await astGrep({ pattern: 'foo($A)' });
    expect(texts(data)).toEqual(['foo(1)', 'foo(2)']);
  });

  it('reads a class member pattern in its context', async () => {
    file('k.ts', 'class K {\n  run() { return 1; }\n  stop() {}\n}\n');
    const { data } = await astGrep({ pattern: 'run() { $$$BODY }' });
    expect(texts(data)).toEqual(['run() { return 1; }']);
  });

  it('reads a multi-line Python statement inside a function body', async () => {
    file(
      'loop.py',
      'def f(items):\n    for item in items:\n        print(item)\n    for k in d:\n        log(k)\n',
    );
    const { data } = await astGrep({ pattern: 'for $X in $Y:\n    print($X)' });
    expect(data.matches.map((m) => m.line)).toEqual([2]);
  });

  it('takes the language from the caller for a file whose extension names none', async () => {
    file('script', 'echo hi\nrm -rf "$dir"\n');
    const { data } = await astGrep({ pattern: 'rm $$$ARGS', path: 'script', language: 'bash' });
    expect(texts(data)).toEqual(['rm -rf "$dir"']);
    await expect(astGrep({ pattern: 'rm $$$ARGS', path: 'script' })).rejects.toThrow(
      /No grammar for .*script: pass language/,
    );
  });

  it('reports an unparseable pattern with its language instead of finding nothing', async () => {
    file('a.py', 'x = 1\n');
    await expect(astGrep({ pattern: 'def (:', path: 'a.py' })).rejects.toThrow(
      /^Unparseable pattern for python/,
    );
    await expect(astGrep({ pattern: 'foo(', language: 'typescript' })).rejects.toThrow(
      /^Unparseable pattern for TypeScript/,
    );
  });

  it('respects .gitignore, caps results at max_results, and tells the total', async () => {
    file('.gitignore', 'build/\n');
    file('build/out.js', 'f(1);\n');
    file('src/a.js', 'f(1);\nf(2);\nf(3);\n');
    const { data, text } = await astGrep({ pattern: 'f($A)', max_results: 2 });
    expect(data.matches.map((m) => `${m.line}`)).toEqual(['1', '2']);
    expect(data.totalMatches).toBe(3);
    expect(text).toContain('Showing 2 of 3 matches');
  });

  it('skips files Read deny rules cover and counts them', async () => {
    file('src/a.ts', 'secret(1);\n');
    file('secrets/b.ts', 'secret(2);\n');
    const { data, text } = await astGrep({ pattern: 'secret($A)' }, ['Read(/secrets/**)']);
    expect(texts(data)).toEqual(['secret(1)']);
    expect(text).toContain('1 file was left out: Read deny rules cover it.');
  });

  it('does not follow a symlink out of the project', async () => {
    const outside = await makeTempDir('yoke-ast-outside-');
    writeFileSync(join(outside, 'x.ts'), 'leak(1);\n');
    symlinkSync(join(outside, 'x.ts'), join(root, 'linked.ts'));
    file('own.ts', 'leak(2);\n');
    const { data } = await astGrep({ pattern: 'leak($A)' });
    expect(texts(data)).toEqual(['leak(2)']);
  });

  it('searches one file without ripgrep, and says why a folder needs it', async () => {
    file('a.ts', 'f(1);\n');
    const env = { ...process.env, PATH: '', USE_BUILTIN_RIPGREP: '0' };
    const context = makeTestContext({ cwd: root, env });
    const one = await callTool<AstGrepOutput>(astGrepTool, { pattern: 'f($A)', path: 'a.ts' }, context);
    expect(texts(one.data)).toEqual(['f(1)']);
    await expect(callTool(astGrepTool, { pattern: 'f($A)' }, context)).rejects.toThrow(/ripgrep/);
  });

  it('refuses a single file a Read deny rule covers', async () => {
    file('secret.ts', 'x(1);\n');
    await expect(astGrep({ pattern: 'x($A)', path: 'secret.ts' }, ['Read(/secret.ts)'])).rejects.toThrow(
      /cannot be read/,
    );
  });
});
