import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRule } from '../../../permissions/rule-string';
import { emptyPermissionContext, type PermissionRule } from '../../../permissions/types';
import type { ToolUseContext } from '../../context';
import { type AstEditOutput, astEditTool } from '../ast-edit';
import { callTool, makeTempDir, makeTestContext, resultText } from '../shared/test-context';
import { type ResolveOutput, resolveTool } from './index';

let root: string;
let context: ToolUseContext;
let rules: PermissionRule[];

function file(relativePath: string, content: string): string {
  const path = join(root, relativePath);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}
const read = (relativePath: string) => readFileSync(join(root, relativePath), 'utf8');

function setRules(kind: 'deny' | 'allow', texts: string[]) {
  rules = texts.map((text) => parseRule(text, kind, 'projectSettings')).filter((r) => r !== undefined);
}

beforeEach(async () => {
  root = await makeTempDir('yoke-ast-edit-');
  execFileSync('git', ['init', '-q'], { cwd: root });
  rules = [];
  context = makeTestContext({
    cwd: root,
    getPermissionContext: () => ({ ...emptyPermissionContext(), rules }),
  });
});

async function stage(input: Record<string, unknown>) {
  const result = await callTool<AstEditOutput>(astEditTool, input, context);
  return { data: result.data, text: resultText(astEditTool, result) };
}
const resolve = (edit_id: string, action: 'accept' | 'discard') =>
  callTool<ResolveOutput>(resolveTool, { edit_id, action }, context);

describe('ast_edit and resolve', () => {
  it('stages a rewrite without writing, then accept writes every file', async () => {
    file('a.ts', 'const x = oldApi(1, 2);\n// oldApi(9)\n');
    file('src/b.ts', 'oldApi();\nlet s = "oldApi(3)";\n');
    const { data, text } = await stage({ pattern: 'oldApi($$$ARGS)', rewrite: 'newApi($$$ARGS)' });
    expect(text).toMatch(/^\(proposed\) 2 replacements in 2 files — edit_id: edit_/);
    expect(text).toContain('-const x = oldApi(1, 2);\n+const x = newApi(1, 2);');
    expect(read('a.ts')).toBe('const x = oldApi(1, 2);\n// oldApi(9)\n');

    const accepted = await resolve(data.editId as string, 'accept');
    expect(accepted.data.files).toEqual(['a.ts', 'src/b.ts']);
    expect(read('a.ts')).toBe('const x = newApi(1, 2);\n// oldApi(9)\n');
    expect(read('src/b.ts')).toBe('newApi();\nlet s = "oldApi(3)";\n');
    // A file the accept wrote counts as read: Edit may follow without a Read.
    expect(context.readFileState.get(join(root, 'a.ts'))).toBeDefined();
    await expect(resolve(data.editId as string, 'accept')).rejects.toThrow(/No staged edit/);
  });

  it('substitutes single metavariables, and a repeated one only where both sides agree', async () => {
    file('m.py', 'if a == a:\n    pass\nif a == b:\n    pass\n');
    const { data } = await stage({ pattern: '$A == $A', rewrite: 'True' });
    expect(data.replacements).toBe(1);
    await resolve(data.editId as string, 'accept');
    expect(read('m.py')).toBe('if True:\n    pass\nif a == b:\n    pass\n');
  });

  it('rejects the whole change, writing nothing, when one file changed after staging', async () => {
    file('a.js', 'f(1);\n');
    file('b.js', 'f(2);\n');
    const { data } = await stage({ pattern: 'f($X)', rewrite: 'g($X)' });
    // Calibration: the staged b.js is `g(2);\n`; written now it would silently drop the `f(3);`
    // added since (the control is the accept above, on files nobody touched).
    file('b.js', 'f(2);\nf(3);\n');
    await expect(resolve(data.editId as string, 'accept')).rejects.toThrow(
      /^b\.js changed after edit_\w+ was staged, so none of its 2 files was written/,
    );
    expect(read('a.js')).toBe('f(1);\n');
    expect(read('b.js')).toBe('f(2);\nf(3);\n');
  });

  it('discard drops the staged edit and writes nothing', async () => {
    file('a.js', 'f(1);\n');
    const { data } = await stage({ pattern: 'f($X)', rewrite: 'g($X)' });
    const discarded = await resolve(data.editId as string, 'discard');
    expect(resultText(resolveTool, discarded)).toBe(`Discarded ${data.editId}; nothing was written.`);
    expect(read('a.js')).toBe('f(1);\n');
    await expect(resolve(data.editId as string, 'accept')).rejects.toThrow(/No staged edit/);
  });

  it('an Edit deny rule on one file denies the whole accept, and the call refuses it too', async () => {
    file('a.js', 'f(1);\n');
    file('locked/b.js', 'f(2);\n');
    const { data } = await stage({ pattern: 'f($X)', rewrite: 'g($X)' });
    setRules('deny', ['Edit(/locked/**)']);
    const id = data.editId as string;
    const verdict = await resolveTool.checkPermissions({ edit_id: id, action: 'accept' }, context);
    expect(verdict).toMatchObject({ behavior: 'deny' });
    expect((verdict as { message: string }).message).toMatch(
      /would change locked\/b\.js: .*nothing was written/,
    );
    await expect(resolve(id, 'accept')).rejects.toThrow(/would change locked\/b\.js/);
    expect(read('a.js')).toBe('f(1);\n');
    expect(read('locked/b.js')).toBe('f(2);\n');
  });

  it('asks for an accept in default mode and allows it under an Edit allow rule', async () => {
    file('a.js', 'f(1);\n');
    const { data } = await stage({ pattern: 'f($X)', rewrite: 'g($X)' });
    const input = { edit_id: data.editId as string, action: 'accept' as const };
    expect(await resolveTool.checkPermissions(input, context)).toEqual({ behavior: 'passthrough' });
    setRules('allow', ['Edit(/**)']);
    expect(await resolveTool.checkPermissions(input, context)).toEqual({ behavior: 'allow' });
  });

  it('says when nothing matches, and stages nothing', async () => {
    file('a.js', 'h(1);\n');
    const { data, text } = await stage({ pattern: 'f($X)', rewrite: 'g($X)' });
    expect(data.editId).toBeNull();
    expect(text).toMatch(/^\(proposed\) 0 replacements/);
    expect(context.services.stagedEdits.ids()).toEqual([]);
  });

  it('refuses a rewrite naming a metavariable the pattern does not bind', async () => {
    file('a.js', 'f(1);\n');
    await expect(stage({ pattern: 'f($X)', rewrite: 'g($Y)' })).rejects.toThrow(
      'The rewrite uses $Y, which the pattern does not bind.',
    );
  });

  it('keeps staged edits per session', async () => {
    file('a.js', 'f(1);\n');
    const { data } = await stage({ pattern: 'f($X)', rewrite: 'g($X)' });
    const other = makeTestContext({ cwd: root });
    await expect(callTool(resolveTool, { edit_id: data.editId, action: 'accept' }, other)).rejects.toThrow(
      /No staged edit/,
    );
    expect(read('a.js')).toBe('f(1);\n');
  });
});
