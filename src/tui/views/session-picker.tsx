/**
 * The resume picker: this project's sessions, newest first (first prompt or title, age, size,
 * branch), filtered as the user types; Enter resumes the one under the cursor, Esc cancels.
 * The list is read in the background (interactive/session-picker.ts); the picker says so meanwhile.
 */
import { Text } from 'ink';
import { useEffect, useState } from 'react';
import {
  describePickerSession,
  filterPickerSessions,
  type PickerSession,
} from '../../interactive/session-picker';
import { printable } from '../terminal/terminal-text';
import { SelectList } from './select-list';
import { useStyle } from './style-context';

export type SessionPickerProps = {
  load(): Promise<PickerSession[]>;
  onPick(session: PickerSession): void;
  onCancel(): void;
  /** Shown as the Esc hint: what cancelling does here. */
  cancelMeans: string;
  now?: number;
};

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; sessions: PickerSession[] }
  | { state: 'failed'; why: string };

export function SessionPicker(props: SessionPickerProps) {
  const style = useStyle();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const { load } = props;
  useEffect(() => {
    let live = true;
    load().then(
      (sessions) => live && setLoaded({ state: 'ready', sessions }),
      (error: Error) => live && setLoaded({ state: 'failed', why: error.message }),
    );
    return () => {
      live = false;
    };
  }, [load]);

  const sessions = loaded.state === 'ready' ? loaded.sessions : [];
  const empty =
    loaded.state === 'loading'
      ? 'Reading the sessions…'
      : loaded.state === 'failed'
        ? `The sessions could not be read: ${loaded.why}`
        : 'No other sessions in this folder yet.';
  return (
    <SelectList
      title="Resume a session"
      items={sessions}
      keyOf={(s) => s.sessionId}
      // Titles and first prompts come from transcripts (a model-made title among them): shown, never obeyed.
      row={(s) => printable(describePickerSession(s, props.now))}
      filter={filterPickerSessions}
      onPick={props.onPick}
      onClose={props.onCancel}
      empty={empty}
      hint={`↑/↓ to choose · type to filter · Enter to resume · Esc ${props.cancelMeans}`}
      footer={(s) => (s ? <Text>{style.dim(`  ${s.sessionId}`)}</Text> : null)}
    />
  );
}
