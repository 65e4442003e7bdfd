/**
 * The file tools' preconditions come before the permission question: an Edit, MultiEdit, Write
 * or NotebookEdit that could only fail is refused without asking anyone (headless or in the REPL,
 * both ask through `canUseTool`), and one that would apply is still asked about.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noopHooks } from '../../../hooks/types';
import type { CanUseToolFn, CanUseToolRequest } from '../../../permissions/types';
import type { ToolUseContext } from '../../context';
import { runToolUse } from '../../run-tool-use';
import { assistantWith, collect, contentText, runAllowed, toolResults, toolUse } from '../../test-support';
import { editTool } from '../edit';
import { multiEditTool } from '../multi-edit';
import { notebookEditTool } from '../notebook-edit';
import { readTool } from '../read';
import { writeTool } from '../write';
import { makeTempDir, tempProjectPerTest } from './test-context';

let dir: string;
let context: ToolUseContext;
tempProjectPerTest(({ dir: folder, context: made }) => {
  dir = folder;
  context = { ...made, tools: [readTool, editTool, multiEditTool, writeTool, notebookEditTool] };
});

/** Runs one call through the whole runner; every question it asks is recorded and answered yes. */
async function run(name: string, input: Record<string, unknown>) {
  const asked: CanUseToolRequest[] = [];
  const canUseTool: CanUseToolFn = async (request) => {
    asked.push(request);
    return { behavior: 'allow' };
  };
  const block = toolUse(name, input);
  const { events } = await collect(
    runToolUse({
      block,
      assistantMessage: assistantWith([block]),
      context,
      canUseTool,
      hooks: noopHooks,
      signal: context.abortSignal,
    }),
  );
  const [result] = toolResults(events);
  if (!result) throw new Error('no tool_result');
  return { asked, text: contentText(result), isError: result.is_error === true };
}

const readFirst = (path: string) => runAllowed(context, toolUse('Read', { file_path: path }));

const notebook = JSON.stringify({
  cells: [
    { cell_type: 'code', id: 'c1', metadata: {}, source: ['x = 1'], outputs: [], execution_count: null },
  ],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5,
});

describe('file changes that could only fail are refused before the permission question', () => {
  it('refuses Edit, MultiEdit, Write and NotebookEdit of a file the model has not read, asking nothing', async () => {
    const path = join(dir, 'app.ts');
    await writeFile(path, 'const a = 1;\n');
    await writeFile(join(dir, 'n.ipynb'), notebook);
    const calls: [string, Record<string, unknown>][] = [
      ['Edit', { file_path: path, old_string: 'a = 1', new_string: 'a = 2' }],
      ['MultiEdit', { file_path: path, edits: [{ old_string: 'a = 1', new_string: 'a = 2' }] }],
      ['Write', { file_path: path, content: 'gone\n' }],
      ['NotebookEdit', { notebook_path: join(dir, 'n.ipynb'), cell_id: 'c1', new_source: 'y' }],
    ];
    for (const [name, input] of calls) {
      const outcome = await run(name, input);
      expect(outcome.asked, name).toEqual([]);
      expect(outcome.isError, name).toBe(true);
      expect(outcome.text, name).toMatch(/has not been read in this conversation\. Read it first/);
    }
    expect(await readFile(path, 'utf8')).toBe('const a = 1;\n');
  });

  it('refuses an edit whose old_string is not in the file, and a file changed since it was read', async () => {
    const path = join(dir, 'app.ts');
    await writeFile(path, 'const a = 1;\n');
    await readFirst(path);
    const missing = await run('Edit', { file_path: path, old_string: 'b = 1', new_string: 'b = 2' });
    expect(missing.asked).toEqual([]);
    expect(missing.text).toMatch(/old_string was not found/);
    await writeFile(path, 'const a = 3;\n');
    const stale = await run('Write', { file_path: path, content: 'x\n' });
    expect(stale.asked).toEqual([]);
    expect(stale.text).toMatch(/was modified since you last read it/);
  });

  it('refuses a missing file, naming similar ones only inside the working folder', async () => {
    await writeFile(join(dir, 'app.ts'), '');
    const inside = await run('Edit', { file_path: join(dir, 'ap.ts'), old_string: 'a', new_string: 'b' });
    expect(inside.asked).toEqual([]);
    expect(inside.text).toContain(
      `${join(dir, 'ap.ts')} does not exist. Did you mean ${join(dir, 'app.ts')}?`,
    );
    // Nobody approved a look into a folder outside the project: its names stay unread.
    const elsewhere = await makeTempDir('yoke-elsewhere-');
    await mkdir(join(elsewhere, 'keys'));
    await writeFile(join(elsewhere, 'keys', 'secret-plan.txt'), '');
    const outside = await run('Edit', {
      file_path: join(elsewhere, 'keys', 'secret-plan.tx'),
      old_string: 'a',
      new_string: 'b',
    });
    expect(outside.asked).toEqual([]);
    expect(outside.text).toContain('does not exist.');
    expect(outside.text).not.toContain('secret-plan.txt');
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('still asks about a change that would apply, and about creating a file', async () => {
    const path = join(dir, 'app.ts');
    await writeFile(path, 'const a = 1;\n');
    await readFirst(path);
    const edit = await run('Edit', { file_path: path, old_string: 'a = 1', new_string: 'a = 2' });
    expect(edit.asked.map((request) => request.tool.name)).toEqual(['Edit']);
    expect(edit.isError).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('const a = 2;\n');
    const created = await run('Write', { file_path: join(dir, 'new.ts'), content: 'x\n' });
    expect(created.asked.map((request) => request.tool.name)).toEqual(['Write']);
    expect(await readFile(join(dir, 'new.ts'), 'utf8')).toBe('x\n');
  });
});
