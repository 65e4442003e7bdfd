/**
 * Worktree names as the model, the Agent tool or `--worktree=name` give them (compat-surface
 * §1.6): `/`-separated segments of `[A-Za-z0-9._-]`, at most 64 characters. A name becomes a
 * folder under the worktrees folder and part of a branch name, and it reaches git as an argument,
 * so a name that could be read as an option (`--upload-pack=…`), leave the folder (`..`) or make
 * a ref git refuses (`a.lock`, `x..y`) is refused here, before git sees it.
 */
import { randomBytes } from 'node:crypto';

export const MAX_WORKTREE_NAME_LENGTH = 64;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** A name that passed `parseWorktreeName`; only that function makes one. */
export type WorktreeName = string & { readonly __worktreeName: unique symbol };

export type NameCheck = { ok: true; name: WorktreeName } | { ok: false; problem: string };

/** Checks a name; `problem` is one line that says what is wrong and what is allowed. */
export function parseWorktreeName(raw: string): NameCheck {
  const bad = (why: string): NameCheck => ({
    ok: false,
    problem: `The worktree name ${JSON.stringify(raw)} ${why}. Use letters, digits, '.', '_' and '-' in '/'-separated parts, at most ${MAX_WORKTREE_NAME_LENGTH} characters.`,
  });
  if (raw.length === 0) return bad('is empty');
  if (raw.length > MAX_WORKTREE_NAME_LENGTH) return bad(`is ${raw.length} characters long`);
  const segments = raw.split('/');
  for (const segment of segments) {
    if (segment === '') return bad("has an empty part (a leading, trailing or doubled '/')");
    // `.`/`..` would climb out of the worktrees folder; git refuses refs with a part starting with a dot.
    if (segment.startsWith('.')) return bad("has a part that starts with '.'");
    // An argument starting with '-' is an option to git (`--upload-pack=…`).
    if (segment.startsWith('-')) return bad("has a part that starts with '-'");
    if (!SEGMENT.test(segment)) return bad('has a character outside the allowed set');
    if (segment.endsWith('.lock')) return bad("has a part that ends in '.lock' (git refuses such branches)");
  }
  if (raw.includes('..')) return bad("contains '..'");
  if (raw.endsWith('.')) return bad("ends in '.'");
  return { ok: true, name: raw as WorktreeName };
}

/** A fresh name for a worktree nobody named: `<prefix>-<8 hex digits>`. */
export function randomWorktreeName(prefix: 'agent' | 'session'): WorktreeName {
  return `${prefix}-${randomBytes(4).toString('hex')}` as WorktreeName;
}

/** The branch a new worktree gets: `worktree-<name>` (the name's '/' parts stay, as in any branch). */
export const branchForName = (name: WorktreeName): string => `worktree-${name}`;

/** The folder a worktree gets under the worktrees folder: one level, `/` spelled `+`. */
export const folderForName = (name: WorktreeName): string => name.split('/').join('+');
