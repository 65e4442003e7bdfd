/** The model's todo list (its latest TodoWrite), shown with Ctrl+T. */
import { Box, Text } from 'ink';
import { useStyle } from './style-context';

export type Todo = { content: string; status: string; activeForm?: string };

export function latestTodos(
  items: readonly { kind: string; name?: string; input?: Record<string, unknown> }[],
): Todo[] | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind === 'tool' && item.name === 'TodoWrite' && Array.isArray(item.input?.todos)) {
      return (item.input.todos as unknown[]).filter(
        (t): t is Todo => !!t && typeof t === 'object' && typeof (t as Todo).content === 'string',
      );
    }
  }
  return undefined;
}

export function TodoPanel({ todos }: { todos: readonly Todo[] | undefined }) {
  const style = useStyle();
  if (!todos || todos.length === 0) {
    return <Text>{style.dim('  No todos yet · ctrl+t to hide')}</Text>;
  }
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {todos.map((todo, index) => {
        const mark = todo.status === 'completed' ? '☒' : todo.status === 'in_progress' ? '◐' : '☐';
        const text =
          todo.status === 'in_progress' ? style.bold(todo.activeForm ?? todo.content) : todo.content;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: todos may repeat their text
          <Text key={index}>
            {todo.status === 'completed' ? style.dim(`${mark} ${todo.content}`) : `${mark} ${text}`}
          </Text>
        );
      })}
    </Box>
  );
}
