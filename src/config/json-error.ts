/**
 * Finds where JSON text goes wrong. Node's `JSON.parse` messages give a position for some errors
 * and none for others, so a settings error could not reliably say "line 3, column 7" without this
 * small scanner. It is only run after `JSON.parse` has already failed.
 */

export type JsonErrorLocation = { line: number; column: number; message: string };

class ScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Where the first syntax error in `text` is, or undefined if the text is valid JSON. */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  try {
    const scanner = new Scanner(text);
    scanner.value();
    scanner.skipSpace();
    if (scanner.pos < text.length) scanner.fail('unexpected text after the JSON value');
    return undefined;
  } catch (error) {
    if (!(error instanceof ScanError)) throw error;
    return { ...lineColumn(text, error.offset), message: error.message };
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new ScanError(message, this.pos);
  }

  skipSpace(): void {
    while (/[ \t\n\r]/.test(this.text[this.pos] ?? '')) this.pos++;
  }

  value(): void {
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === undefined) this.fail('unexpected end of input');
    if (ch === '{') this.object();
    else if (ch === '[') this.array();
    else if (ch === '"') this.string();
    else if (ch === '-' || (ch >= '0' && ch <= '9')) this.number();
    else this.literal(ch);
  }

  private literal(ch: string): void {
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    this.fail(`unexpected ${describe(ch)}`);
  }

  private object(): void {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === '}') this.failTrailingComma('}');
      if (this.text[this.pos] !== '"')
        this.fail(`expected a property name in double quotes, found ${this.here()}`);
      this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ':')
        this.fail(`expected ':' after the property name, found ${this.here()}`);
      this.pos++;
      this.value();
      this.skipSpace();
      const ch = this.text[this.pos];
      this.pos++;
      if (ch === '}') return;
      if (ch !== ',') {
        this.pos--;
        this.fail(`expected ',' or '}', found ${this.here()}`);
      }
    }
  }

  private array(): void {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipSpace();
      // Only reached after a comma: the empty array returned above.
      if (this.text[this.pos] === ']') this.failTrailingComma(']');
      this.value();
      this.skipSpace();
      const ch = this.text[this.pos];
      this.pos++;
      if (ch === ']') return;
      if (ch !== ',') {
        this.pos--;
        this.fail(`expected ',' or ']', found ${this.here()}`);
      }
    }
  }

  private string(): void {
    this.pos++;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) this.fail('unterminated string');
      if (ch === '"') {
        this.pos++;
        return;
      }
      if (ch < ' ') this.fail('control character in string (escape newlines as \\n)');
      if (ch === '\\') {
        const next = this.text[this.pos + 1] ?? '';
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
          this.pos += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(next) || next === '') this.fail('invalid escape in string');
        this.pos += 2;
        continue;
      }
      this.pos++;
    }
  }

  private number(): void {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (!match) this.fail('invalid number');
    this.pos += match[0].length;
  }

  /** The slip editors and JavaScript forgive and JSON does not: `[1, 2,]`, `{"a": 1,}`. */
  private failTrailingComma(close: string): never {
    this.fail(`a comma before '${close}' (JSON allows no comma after the last item; remove it)`);
  }

  private here(): string {
    const ch = this.text[this.pos];
    return ch === undefined ? 'end of input' : describe(ch);
  }
}

function describe(ch: string): string {
  return `'${ch}'`;
}
