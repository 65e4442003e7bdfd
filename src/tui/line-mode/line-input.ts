/**
 * Lines typed in the line mode, for two readers: the prompt loop (`next`) and the questions asked
 * meanwhile (`ask`: a permission, a resume choice). A question gets the next line before the loop
 * does, so the answer to "Allow?" is never sent to the model as a prompt.
 */
import type { Interface } from 'node:readline';

type Waiter = (line: string | undefined) => void;

export class LineInput {
  private readonly lines: string[] = [];
  private readonly questions: Waiter[] = [];
  private reader: Waiter | undefined;
  private closed = false;

  constructor(private readonly rl: Interface) {
    rl.on('line', (line) => this.deliver(line));
    rl.on('close', () => {
      this.closed = true;
      for (const waiter of this.questions.splice(0)) waiter(undefined);
      this.reader?.(undefined);
      this.reader = undefined;
    });
  }

  /** The next line for the prompt loop; undefined once the input ended (Ctrl+D). */
  next(): Promise<string | undefined> {
    const line = this.lines.shift();
    if (line !== undefined || this.closed) return Promise.resolve(line);
    return new Promise((resolve) => {
      this.reader = resolve;
    });
  }

  /** Writes the question and resolves with the answer line (undefined when the input ended). */
  ask(
    question: string,
    write: (text: string) => void = (t) => process.stdout.write(t),
  ): Promise<string | undefined> {
    write(question);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.questions.push(resolve));
  }

  close(): void {
    this.rl.close();
  }

  private deliver(line: string): void {
    const question = this.questions.shift();
    if (question) {
      question(line);
      return;
    }
    const reader = this.reader;
    this.reader = undefined;
    if (reader) reader(line);
    else this.lines.push(line);
  }
}
