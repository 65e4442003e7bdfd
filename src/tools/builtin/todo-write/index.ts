/** TodoWrite: replaces the session's task list, which the UI shows to the user. */
import * as z from '../../../lib/zod';
import type { TodoItem } from '../../context';
import { buildTool, ToolError } from '../../tool';
import prompt from './prompt.md';

const todoSchema = z.lazy(() =>
  z.strictObject({
    content: z
      .string()
      .check(z.minLength(1), z.describe('The task, in imperative form, e.g. "Run the tests"')),
    status: z.enum(['pending', 'in_progress', 'completed']),
    activeForm: z
      .string()
      .check(z.minLength(1), z.describe('The task in present continuous form, e.g. "Running the tests"')),
  }),
);

const inputSchema = z.lazy(() =>
  z.strictObject({
    todos: z.array(todoSchema).check(z.describe('The complete, updated task list')),
  }),
);
export type TodoWriteInput = z.infer<typeof inputSchema>;

export type TodoWriteOutput = { oldTodos: TodoItem[]; newTodos: TodoItem[] };

function summarize(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'Todo list cleared.';
  const count = (status: TodoItem['status']) => todos.filter((todo) => todo.status === status).length;
  const done = count('completed');
  const counts = `${done} completed, ${count('in_progress')} in progress, ${count('pending')} pending`;
  if (done === todos.length) return `Todos updated: all ${done} completed.`;
  return `Todos updated: ${counts}. Keep the list current: mark each task completed as soon as it is done, and set the next one in progress before you start it.`;
}

export const todoWriteTool = buildTool<TodoWriteInput, TodoWriteOutput>({
  name: 'TodoWrite',
  tier: 'read',
  inputSchema,
  prompt,
  description: (input) => `Update todos (${input.todos.length})`,
  // Each call replaces the whole list, so two in one batch must apply in order.
  isConcurrencySafe: () => false,
  isReadOnly: () => true,
  mapResultToContent: (output) => summarize(output.newTodos),
  async call(input, context) {
    const active = input.todos.filter((todo) => todo.status === 'in_progress');
    if (active.length > 1) {
      throw new ToolError(
        `${active.length} tasks are in_progress (${active.map((todo) => `"${todo.content}"`).join(', ')}); ` +
          'at most one may be. Mark the others completed or pending and send the whole list again; nothing was changed.',
      );
    }
    const oldTodos = context.getAppState().todos;
    const newTodos = input.todos.map((todo) => ({ ...todo }));
    context.setAppState((state) => ({ ...state, todos: newTodos }));
    return { data: { oldTodos, newTodos } };
  },
});
