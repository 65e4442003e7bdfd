/**
 * The process's stdout and stderr for the CLI's own writes. Each is looked up on its first write
 * (creating process.stdout or process.stderr costs milliseconds of a start that may print nothing
 * before the model answers), and made safe for a reader that went away: `yoke -p … | head -1`
 * closes the pipe, and a write after that fails with EPIPE. Unheard, that error would end the
 * process with a stack trace; here later writes are dropped and `onClosed` listeners are told, so
 * the run can end quietly. A terminal that vanished (EIO after a hangup) is treated the same.
 */
type StdName = 'stdout' | 'stderr';

export class StdStream {
  private stream: NodeJS.WriteStream | undefined;
  private closedBy: Error | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly name: StdName) {}

  /** The real stream, with the error listener attached (for code that needs a Writable). */
  get writable(): NodeJS.WriteStream {
    if (!this.stream) {
      const stream = process[this.name];
      stream.on('error', (error) => this.close(error));
      this.stream = stream;
    }
    return this.stream;
  }

  get closed(): boolean {
    return this.closedBy !== undefined;
  }

  write(text: string): void {
    if (this.closedBy) return;
    this.writable.write(text);
  }

  /** Calls `listener` once the reader is gone; returns a function that stops listening. */
  onClosed(listener: () => void): () => void {
    if (this.closedBy) {
      listener();
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private close(error: Error): void {
    if (this.closedBy) return;
    this.closedBy = error;
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }
}

export const stdout = new StdStream('stdout');
export const stderr = new StdStream('stderr');
