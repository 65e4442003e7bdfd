/**
 * "Start this MCP server from the folder's .mcp.json?" — asked once per folder and server at the
 * start of the REPL. A project server is code the repository asks Yoke to run (or a URL it asks
 * Yoke to send data to), so the dialog shows exactly what would run before anything does.
 */
import { Box, Text } from 'ink';
import { useKeys } from '../input/use-keys';
import { useRefState } from '../input/use-ref-state';
import { ChoiceList, DialogFrame } from './dialog-frame';
import { useStyle } from './style-context';

export type McpApprovalAnswer = 'approve' | 'approve-all' | 'deny' | 'later';

import type { PendingServer } from '../session/project-server-answers';

export function McpApprovalDialog({
  server,
  remaining,
  onAnswer,
}: {
  server: PendingServer;
  /** Servers still waiting after this one (the "all" choice names how many). */
  remaining: number;
  onAnswer(answer: McpApprovalAnswer): void;
}) {
  const style = useStyle();
  const choices: { label: string; answer: McpApprovalAnswer }[] = [
    { label: 'Yes, start it (remembered for this folder)', answer: 'approve' },
    ...(remaining > 0
      ? [
          {
            label: `Yes, and the ${remaining} other server${remaining === 1 ? '' : 's'} of this .mcp.json waiting`,
            answer: 'approve-all' as const,
          },
        ]
      : []),
    { label: 'No, do not start it (remembered for this folder)', answer: 'deny' },
  ];
  const [selected, setSelected] = useRefState(0);
  useKeys((event) => {
    if (event.type === 'text' && /^[1-9]$/.test(event.text)) {
      const choice = choices[Number(event.text) - 1];
      if (choice) onAnswer(choice.answer);
    } else if (event.type === 'key') {
      if (event.name === 'up') setSelected((selected.current + choices.length - 1) % choices.length);
      else if (event.name === 'down') setSelected((selected.current + 1) % choices.length);
      else if (event.name === 'return')
        onAnswer((choices[selected.current] ?? choices[0])?.answer ?? 'later');
      else if (event.name === 'escape') onAnswer('later');
    }
    return true;
  });
  return (
    <DialogFrame marginTop={1}>
      <Text>{style.bold(`This folder's .mcp.json asks Yoke to start the MCP server "${server.name}"`)}</Text>
      <Box paddingLeft={2} marginTop={1}>
        <Text>{server.what}</Text>
      </Box>
      <Box marginTop={1}>
        <Text>
          {
            'An MCP server runs with your permissions and its tools join the conversation. Start it only if you know what it is.'
          }
        </Text>
      </Box>
      <Box marginTop={1} flexDirection="column">
        <ChoiceList labels={choices.map((c) => c.label)} selected={selected.current} />
      </Box>
      <Text>{style.dim(`Enter to confirm · 1-${choices.length} to choose · Esc to decide later`)}</Text>
    </DialogFrame>
  );
}
