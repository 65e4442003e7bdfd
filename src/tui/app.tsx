/**
 * The REPL's screen: finished items in Ink's <Static> (written to the scrollback once, never
 * redrawn), then the live region, the permission dialog or the input line, and the status line.
 */
import { relative } from 'node:path';
import { Box, Static, Text } from 'ink';
import {
  memo,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { type PromptActions, PromptInput } from './input/prompt-input';
import type { ReplSession } from './session/repl-session';
import { throttledSubscribe } from './transcript/throttled-subscribe';
import { LiveRegion } from './views/live-region';
import { PermissionDialog } from './views/permission-dialog';
import { statusText } from './views/status-text';
import { useStyle } from './views/style-context';
import { latestTodos, TodoPanel } from './views/todo-panel';
import { showsMoreInFull } from './views/tool-summary';
import { TranscriptItemView } from './views/transcript-item';
import { useTerminalSize } from './views/use-terminal-size';

export type AppProps = {
  session: ReplSession;
  cwd: string;
  /** What the input line does beyond editing (the keys that act on the session are wired here). */
  actions: Omit<PromptActions, 'interrupt' | 'cycleMode' | 'toggleFullOutput' | 'toggleTodos'>;
  history: () => readonly string[];
  contextWindow: (model: string) => number;
  backgroundShells: () => number;
  /** A `statusLine` command's latest line, replacing the built-in one. */
  customStatus?: () => string | undefined;
  /** An overlay that owns the keys (the resume picker, /tasks); replaces the input while shown. */
  overlay?: ReactNode;
};

/** At most this often the transcript (a streaming answer) is redrawn; keys redraw at once. */
const TRANSCRIPT_FRAME_MS = 50;

/** How often the spinner (its elapsed time and token count) and running tools' times refresh. */
const TICK_MS = 250;

/** The input line re-renders for its own keys and for its props, not for each streamed frame. */
const InputLine = memo(PromptInput);

type Tick = { now: number; tokens: number; serverWaitSince?: number | undefined };

export function App(props: AppProps) {
  const { session, cwd } = props;
  const style = useStyle();
  const status = useSyncExternalStore(session.subscribe, session.getStatus);
  const subscribeTranscript = useMemo(
    () => throttledSubscribe(session.transcript.subscribe, TRANSCRIPT_FRAME_MS),
    [session],
  );
  const snapshot = useSyncExternalStore(subscribeTranscript, session.transcript.getSnapshot);
  const [full, setFull] = useState(false);
  const fullRef = useRef(false);
  const [todosShown, setTodosShown] = useState(false);
  const [tick, setTick] = useState<Tick>(() => ({ now: Date.now(), tokens: 0 }));
  const { rows } = useTerminalSize();

  const hasRunning = snapshot.live.some((item) => item.kind === 'tool');
  useEffect(() => {
    if (!status.running && !hasRunning) return;
    // The token count moves with every streamed word; shown at the tick, the spinner's row is
    // redrawn four times a second rather than with every frame of the answer.
    const update = () => {
      const now = Date.now();
      setTick({
        now,
        tokens: session.transcript.getSnapshot().turnTokens,
        serverWaitSince: session.serverWait.waitingSince(now),
      });
    };
    update();
    const timer = setInterval(update, TICK_MS);
    return () => clearInterval(timer);
  }, [status.running, hasRunning, session]);

  const interrupt = useCallback(() => session.interrupt(), [session]);
  const actions: PromptActions = useMemo(
    () => ({
      ...props.actions,
      interrupt,
      cycleMode: () => session.cyclePermissionMode(),
      toggleFullOutput: () => {
        // What was printed cut is in the scrollback, which is never redrawn: turning full output
        // on prints the latest prompt's cut tool calls again, whole.
        fullRef.current = !fullRef.current;
        // With nothing to print again, a line says so: the status line's label alone looked like
        // a key that did nothing.
        if (fullRef.current && session.transcript.reprintTools(showsMoreInFull) === 0)
          session.transcript.notice(
            'info',
            'Full output on: nothing since the last prompt was cut; later tool output is shown whole.',
          );
        setFull(fullRef.current);
      },
      toggleTodos: () => setTodosShown((t) => !t),
    }),
    [props.actions, interrupt, session],
  );

  // <Static> has printed the new committed items by now (Ink writes them in the commit): the
  // store can let them go.
  useLayoutEffect(() => {
    session.transcript.releasePrinted(snapshot.committed.length);
  }, [session, snapshot.committed]);

  const todos = todosShown
    ? latestTodos([...(snapshot.lastTodoCall ? [snapshot.lastTodoCall] : []), ...snapshot.live])
    : undefined;
  const custom = props.customStatus?.();
  const line =
    custom ??
    statusText(
      {
        model: status.model,
        startFailed: status.startFailed,
        mode: status.mode,
        contextTokens: status.contextTokens,
        contextWindow: props.contextWindow(status.model),
        costUsd: status.costUsd,
        backgroundShells: props.backgroundShells(),
        verbose: full,
        ...(status.cwd && status.cwd !== cwd ? { cwd: relative(cwd, status.cwd) || status.cwd } : {}),
      },
      style,
    );
  // The input box, status line and margins take about 8 rows; the streaming block gets a quarter
  // of the screen, so the live region stays well below the terminal's height — even when the
  // terminal is narrowed mid-answer and rewraps each of its rows onto two, the rows above the
  // cursor still fit on screen, where they can be redrawn (none is pushed into the scrollback).
  const maxDraftLines = Math.max(3, Math.floor(rows / 4));

  return (
    <>
      <Static items={snapshot.committed as never[]}>
        {(item: (typeof snapshot.committed)[number]) => (
          <TranscriptItemView key={item.id} item={item} cwd={cwd} full={full} />
        )}
      </Static>
      <LiveRegion
        snapshot={snapshot}
        cwd={cwd}
        full={full}
        now={tick.now}
        tokens={tick.tokens}
        serverWaitSince={tick.serverWaitSince}
        turnStartedAt={status.turnStartedAt}
        maxDraftLines={maxDraftLines}
      />
      {status.queued.length > 0 && status.running ? (
        <Box flexDirection="column" marginTop={1}>
          {status.queued.map((q, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same prompt may be queued twice
            <Text key={index}>{style.dim(`  ⧗ queued: ${q.split('\n')[0]}`)}</Text>
          ))}
        </Box>
      ) : null}
      {todosShown ? <TodoPanel todos={todos} /> : null}
      {status.permission ? (
        <PermissionDialog key={status.permission.id} pending={status.permission} cwd={cwd} />
      ) : null}
      {props.overlay ?? null}
      <Box marginTop={1} flexDirection="column">
        <InputLine
          actions={actions}
          history={props.history()}
          running={status.running}
          active={!status.permission && !props.overlay}
        />
        <Text wrap="truncate-end">{`  ${line}`}</Text>
      </Box>
    </>
  );
}
