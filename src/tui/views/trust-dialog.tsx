/**
 * The first interactive run in a folder asks whether to trust it. Trusting lets the project's
 * settings run code (hooks, env, baseUrl) and widen permissions (allow rules, a permission mode,
 * WebFetch hosts); the lines below the question name what this folder's settings ask for.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { useKeys } from '../input/use-keys';
import { ChoiceList, DialogFrame } from './dialog-frame';
import { useStyle } from './style-context';

export function TrustDialog({
  folder,
  withheld,
  onAnswer,
}: {
  folder: string;
  withheld: readonly string[];
  onAnswer: (trust: boolean) => void;
}) {
  const style = useStyle();
  const [selected, setSelected] = useState(0);
  useKeys((event) => {
    if (event.type === 'text' && (event.text === '1' || event.text === '2')) onAnswer(event.text === '1');
    else if (event.type === 'key' && (event.name === 'up' || event.name === 'down'))
      setSelected(selected === 0 ? 1 : 0);
    else if (event.type === 'key' && event.name === 'return') onAnswer(selected === 0);
    else if (
      event.type === 'key' &&
      (event.name === 'escape' || (event.ctrl && (event.name === 'c' || event.name === 'd')))
    )
      onAnswer(false);
    return true;
  });
  const options = ['Yes, proceed', 'No, exit'];
  return (
    <DialogFrame>
      <Text>{style.bold('Do you trust the files in this folder?')}</Text>
      <Text>{folder}</Text>
      <Box marginTop={1} flexDirection="column">
        <Text>
          {
            "Yoke will read and run what this folder's settings ask for: hooks, environment variables, a base URL, allow rules, a permission mode and WebFetch hosts. Trust only folders whose contents you know."
          }
        </Text>
        {withheld.length > 0 ? (
          <Box marginTop={1} flexDirection="column">
            <Text>{style.dim('Until you trust it:')}</Text>
            {withheld.map((line) => (
              // A long item wraps under its own text, not under the bullet.
              <Box key={line} flexDirection="row">
                <Box flexShrink={0} width={4}>
                  <Text>{'  • '}</Text>
                </Box>
                <Text>{line}</Text>
              </Box>
            ))}
          </Box>
        ) : null}
      </Box>
      <Box marginTop={1} flexDirection="column">
        <ChoiceList labels={options} selected={selected} />
      </Box>
      <Text>{style.dim('Enter to confirm · Esc to exit')}</Text>
    </DialogFrame>
  );
}
