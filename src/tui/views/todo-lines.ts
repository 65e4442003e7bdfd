/** A todo list as lines: a mark for its status, the active form of the one in progress. */
import type { Style } from './ansi';

export type Todo = { content: string; status: string; activeForm?: string };

/** The todos of a TodoWrite input; entries without text are left out. */
export function todosOf(input: Record<string, unknown> | undefined): Todo[] | undefined {
  if (!Array.isArray(input?.todos)) return undefined;
  return (input.todos as unknown[]).filter(
    (t): t is Todo => !!t && typeof t === 'object' && typeof (t as Todo).content === 'string',
  );
}

export function todoLine(todo: Todo, style: Style): string {
  if (todo.status === 'completed') return style.dim(`☒ ${todo.content}`);
  if (todo.status === 'in_progress') return `◐ ${style.bold(todo.activeForm ?? todo.content)}`;
  return `☐ ${todo.content}`;
}

/** "1 completed · 1 in progress · 1 pending", leaving out the statuses no todo has. */
export function todoCounts(todos: readonly Todo[]): string {
  const count = (status: string) => todos.filter((t) => t.status === status).length;
  const parts = [
    [count('completed'), 'completed'],
    [count('in_progress'), 'in progress'],
    [count('pending'), 'pending'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
  return said.length > 0 ? said.join(' · ') : 'No todos';
}
