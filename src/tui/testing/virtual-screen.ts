/**
 * A small terminal for tests of what the REPL writes: a grid of cells and a scrollback, fed the
 * bytes, understanding the sequences the frame writer and Ink use (cursor up/down/column, erase
 * line and below — with tmux's scroll-on-clear —, insert/delete lines, newline with the pty's
 * CR-LF, SGR and private modes ignored as styling). It reads back the text a person would see, so a test can compare the
 * screen after differential frames with the screen after drawing everything at once.
 */
export class VirtualScreen {
  readonly scrollback: string[] = [];
  private grid: string[][];
  private row = 0;
  private col = 0;
  /** DECAWM: a character past the last column starts the next row (off: it overwrites the last). */
  private autoWrap = true;

  constructor(
    public columns: number,
    readonly rows: number,
  ) {
    this.grid = Array.from({ length: rows }, () => this.blankRow());
  }

  /**
   * The terminal gets narrower. `reflow`, as tmux does it: every row longer than the new width is
   * wrapped onto as many rows as it needs, the cursor stays on the character it was on, and the
   * screen keeps its bottom row (blank or not) at the bottom — the rows the wrapping adds push the
   * top of the screen into the scrollback, the cursor with them if it was near the top. Without
   * it (xterm): rows are cut at the new width.
   */
  narrow(columns: number, { reflow }: { reflow: boolean }): void {
    const rows: string[][] = [];
    let cursorRow = 0;
    let cursorCol = 0;
    this.grid.forEach((cells, index) => {
      const text = [...this.rowText(cells)];
      const parts = reflow ? Math.max(1, Math.ceil(text.length / columns)) : 1;
      if (index === this.row) {
        const part = reflow ? Math.min(parts - 1, Math.floor(this.col / columns)) : 0;
        cursorRow = rows.length + part;
        cursorCol = reflow ? this.col - part * columns : Math.min(this.col, columns - 1);
      }
      for (let p = 0; p < parts; p++) {
        const row = Array<string>(columns).fill(' ');
        text.slice(p * columns, (p + 1) * columns).forEach((c, i) => {
          row[i] = c;
        });
        rows.push(row);
      }
    });
    const pushed = rows.length - this.rows;
    this.scrollback.push(...rows.slice(0, pushed).map((cells) => this.rowText(cells)));
    this.columns = columns;
    this.grid = rows.slice(pushed);
    // A cursor pushed off the top goes to the screen's top-left, as in tmux.
    this.row = cursorRow < pushed ? 0 : cursorRow - pushed;
    this.col = cursorRow < pushed ? 0 : cursorCol;
  }

  private blankRow(): string[] {
    return Array<string>(this.columns).fill(' ');
  }

  write(data: string): void {
    let i = 0;
    while (i < data.length) {
      const char = data[i] as string;
      if (char === '\x1b') {
        const csi = /^\x1b\[([?0-9;]*)([A-Za-z])/.exec(data.slice(i, i + 40));
        if (!csi)
          throw new Error(`VirtualScreen: unknown escape at ${JSON.stringify(data.slice(i, i + 10))}`);
        this.control(csi[1] as string, csi[2] as string);
        i += csi[0].length;
        continue;
      }
      if (char === '\n') {
        // The pty's ONLCR: a newline returns to the first column too.
        this.col = 0;
        this.lineFeed();
      } else if (char === '\r') {
        this.col = 0;
      } else {
        const code = data.codePointAt(i) as number;
        const text = String.fromCodePoint(code);
        if (this.col >= this.columns && !this.autoWrap) this.col = this.columns - 1;
        else if (this.col >= this.columns) {
          this.col = 0;
          this.lineFeed();
        }
        (this.grid[this.row] as string[])[this.col] = text;
        this.col++;
        i += text.length;
        continue;
      }
      i++;
    }
  }

  private lineFeed(): void {
    if (this.row < this.rows - 1) {
      this.row++;
      return;
    }
    this.scrollback.push(this.rowText(this.grid.shift() as string[]));
    this.grid.push(this.blankRow());
  }

  private control(params: string, final: string): void {
    if (params === '?7') this.autoWrap = final === 'h';
    if (params.startsWith('?')) return; // private modes: cursor visibility, paste, sync, auto-wrap
    const n = params === '' ? 1 : Number(params.split(';')[0]);
    switch (final) {
      case 'm':
        return;
      case 'A':
        this.row = Math.max(0, this.row - n);
        return;
      case 'B':
        this.row = Math.min(this.rows - 1, this.row + n);
        return;
      case 'G':
        this.col = Math.min(this.columns - 1, n - 1);
        return;
      case 'K': {
        // 0 (or none): to the end of the line; 2: the whole line. The cursor stays.
        const from = params === '2' ? 0 : this.col;
        for (let c = from; c < this.columns; c++) (this.grid[this.row] as string[])[c] = ' ';
        return;
      }
      case 'J':
        // From the top-left this clears the whole screen, and tmux (scroll-on-clear, its default)
        // moves what was on it into the scrollback first, up to the last row with text.
        if (this.row === 0 && this.col === 0) {
          const rows = this.visible();
          while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
          this.scrollback.push(...rows);
        }
        for (let c = this.col; c < this.columns; c++) (this.grid[this.row] as string[])[c] = ' ';
        for (let r = this.row + 1; r < this.rows; r++) this.grid[r] = this.blankRow();
        return;
      case 'L':
        for (let k = 0; k < n; k++) {
          this.grid.splice(this.row, 0, this.blankRow());
          this.grid.pop();
        }
        return;
      case 'M':
        for (let k = 0; k < n; k++) {
          this.grid.splice(this.row, 1);
          this.grid.push(this.blankRow());
        }
        return;
      default:
        throw new Error(`VirtualScreen: unsupported CSI ${params}${final}`);
    }
  }

  private rowText(cells: readonly string[]): string {
    return cells.join('').trimEnd();
  }

  /** The visible rows as text (trailing spaces removed). */
  visible(): string[] {
    return this.grid.map((cells) => this.rowText(cells));
  }

  /** Scrollback then the visible rows, with the blank rows at the bottom dropped. */
  all(): string[] {
    const lines = [...this.scrollback, ...this.visible()];
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  get cursor(): { row: number; col: number } {
    return { row: this.row, col: this.col };
  }
}
