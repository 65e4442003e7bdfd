/**
 * What the REPL's screen shows besides the conversation: an overlay that owns the keys (the resume
 * picker, /tasks, /mcp, the MCP approval question), the custom status line's latest text and the
 * count of running background shells.
 * A small store the root view subscribes to; the session code (plain TypeScript) sets it.
 */
import type { ReactNode } from 'react';

export type ScreenExtrasSnapshot = {
  readonly overlay: ReactNode | undefined;
  /** The `statusLine` command's latest line; undefined shows the built-in line. */
  readonly statusLine: string | undefined;
  /** How many background shells run: the built-in status line counts them, redrawn as they end. */
  readonly backgroundShells: number;
};

export class ScreenExtras {
  private snapshot: ScreenExtrasSnapshot = { overlay: undefined, statusLine: undefined, backgroundShells: 0 };
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ScreenExtrasSnapshot => this.snapshot;

  get hasOverlay(): boolean {
    return this.snapshot.overlay !== undefined;
  }

  /** Replaces whatever overlay is open. */
  show(overlay: ReactNode): void {
    this.set({ overlay });
  }

  close(): void {
    if (this.snapshot.overlay !== undefined) this.set({ overlay: undefined });
  }

  setStatusLine(line: string | undefined): void {
    if (line !== this.snapshot.statusLine) this.set({ statusLine: line });
  }

  setBackgroundShells(count: number): void {
    if (count !== this.snapshot.backgroundShells) this.set({ backgroundShells: count });
  }

  private set(change: Partial<ScreenExtrasSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}
