import { describe, expect, it } from 'vitest';
import { ToolError } from '../../tool';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { type TodoWriteOutput, todoWriteTool } from './index';

const item = (content: string, status: 'pending' | 'in_progress' | 'completed') => ({
  content,
  status,
  activeForm: `${content}ing`,
});

describe('TodoWrite', () => {
  it('stores the list in app state and returns the old and new lists', async () => {
    const context = makeTestContext();
    const first = [item('Plan', 'in_progress'), item('Build', 'pending')];
    await callTool(todoWriteTool, { todos: first }, context);
    expect(context.getAppState().todos).toEqual(first);

    const second = [item('Plan', 'completed'), item('Build', 'in_progress'), item('Test', 'pending')];
    const result = await callTool<TodoWriteOutput>(todoWriteTool, { todos: second }, context);
    expect(result.data.oldTodos).toEqual(first);
    expect(result.data.newTodos).toEqual(second);
    expect(context.getAppState().todos).toEqual(second);
    expect(resultText(todoWriteTool, result)).toMatch(
      /^Todos updated: 1 completed, 1 in progress, 1 pending\./,
    );
  });

  it('refuses two in-progress items, names them, and leaves the list unchanged', async () => {
    const context = makeTestContext();
    const before = [item('Plan', 'pending')];
    await callTool(todoWriteTool, { todos: before }, context);
    const call = callTool(
      todoWriteTool,
      { todos: [item('Plan', 'in_progress'), item('Build', 'in_progress')] },
      context,
    );
    await expect(call).rejects.toBeInstanceOf(ToolError);
    await expect(call).rejects.toThrow(/"Plan", "Build".*at most one/);
    expect(context.getAppState().todos).toEqual(before);
  });

  it('rejects empty content or activeForm and unknown statuses through the schema', () => {
    const parse = (todo: Record<string, unknown>) =>
      todoWriteTool.inputSchema.safeParse({ todos: [todo] }).success;
    expect(parse({ content: '', status: 'pending', activeForm: 'x' })).toBe(false);
    expect(parse({ content: 'x', status: 'pending', activeForm: '' })).toBe(false);
    expect(parse({ content: 'x', status: 'done', activeForm: 'x' })).toBe(false);
    expect(parse({ content: 'x', status: 'pending' })).toBe(false);
    expect(parse({ content: 'x', status: 'pending', activeForm: 'x' })).toBe(true);
  });

  it('reports an all-done or cleared list plainly', async () => {
    const context = makeTestContext();
    const done = await callTool(todoWriteTool, { todos: [item('Plan', 'completed')] }, context);
    expect(resultText(todoWriteTool, done)).toBe('Todos updated: all 1 completed.');
    const cleared = await callTool(todoWriteTool, { todos: [] }, context);
    expect(resultText(todoWriteTool, cleared)).toBe('Todo list cleared.');
    expect(context.getAppState().todos).toEqual([]);
  });

  it('is a read-tier tool that must not run concurrently with itself', () => {
    expect(todoWriteTool.tier).toBe('read');
    expect(todoWriteTool.isConcurrencySafe({ todos: [] })).toBe(false);
    expect(todoWriteTool.inputJsonSchema.additionalProperties).toBe(false);
  });
});
