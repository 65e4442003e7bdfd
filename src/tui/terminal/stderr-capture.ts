/**
 * While the REPL draws the screen, text written to stderr must not reach the terminal: it would
 * land under the live region, behind the frame writer's back, and every later frame would be drawn
 * a row off from where the writer believes its rows are (closing /tasks after stopping a shell left
 * a stale row of the view: the session's "Background shell … killed." warning had gone to stderr).
 * The session's warnings and errors (the CLI's log writes `yoke: warning: …` and `yoke: …` lines),
 * Node's own warnings and a library's complaints all come this way; each line is handed to `show`
 * instead (the REPL makes it a transcript notice), until the returned function puts stderr back.
 */

export type CapturedLine = { level: 'warning' | 'error'; text: string };

type WriteCallback = (error?: Error | null) => void;

/** The part of a writable stream this replaces (process.stderr's `write`). */
export type CapturableStream = {
  write(
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | WriteCallback,
    callback?: WriteCallback,
  ): boolean;
};

const WARNING = 'yoke: warning: ';
const YOKE = 'yoke: ';

/** A line of stderr as the user should read it in the transcript. */
export function capturedLine(line: string): CapturedLine {
  if (line.startsWith(WARNING)) return { level: 'warning', text: line.slice(WARNING.length) };
  if (line.startsWith(YOKE)) return { level: 'error', text: line.slice(YOKE.length) };
  return { level: 'warning', text: line };
}

export function captureStderr(stream: CapturableStream, show: (line: CapturedLine) => void): () => void {
  // process.stderr's write is its prototype's: put back by removing the stand-in.
  const own = Object.hasOwn(stream, 'write') ? stream.write : undefined;
  const decoder = new TextDecoder();
  let pending = '';
  const emit = (text: string) => {
    const line = text.replace(/\r$/, '');
    if (line.trim() !== '') show(capturedLine(line));
  };
  stream.write = (chunk, encoding?, callback?) => {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) emit(line);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) queueMicrotask(() => done(null));
    return true;
  };
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (own) stream.write = own;
    else Reflect.deleteProperty(stream, 'write');
    // A last line without its newline still reaches the user.
    emit(pending + decoder.decode());
    pending = '';
  };
}
