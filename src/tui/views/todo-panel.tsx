/** The model's todo list (its latest TodoWrite), shown with Ctrl+T. */
import { Box, Text } from 'ink';
import { useStyle } from './style-context';
import { type Todo, todoLine, todosOf } from './todo-lines';

export type { Todo };

export function latestTodos(
  items: readonly { kind: string; name?: string; input?: Record<string, unknown> }[],
): Todo[] | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind === 'tool' && item.name === 'TodoWrite') {
      const todos = todosOf(item.input);
      if (todos) return todos;
    }
  }
  return undefined;
}

export function TodoPanel({ todos }: { todos: readonly Todo[] | undefined }) {
  const style = useStyle();
  if (!todos || todos.length === 0) {
    return (
      <Box marginTop={1}>
        <Text>{style.dim('  No todos yet · ctrl+t to hide')}</Text>
      </Box>
    );
  }
  // A heading apart from the answer above: the list is not more of what the model said.
  return (
    <Box flexDirection="column" paddingLeft={2} marginTop={1}>
      <Text>{style.dim('Todos · ctrl+t to hide')}</Text>
      {todos.map((todo, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: todos may repeat their text
        <Text key={index}>{todoLine(todo, style)}</Text>
      ))}
    </Box>
  );
}
