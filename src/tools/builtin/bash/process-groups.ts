/**
 * Every process group a shell was started in, for as long as it may have members. They belong to
 * the OS process, not to a session: whatever ends Yoke — a finished run, a signal, a forced exit,
 * an uncaught error — must not leave a command's tree running under PID 1, so the exit handler
 * kills them all. (A `kill` on exit cannot wait for a grace period, hence SIGKILL.)
 */
const groups = new Set<number>();
let exitHookInstalled = false;

/** Whether any process of the group still exists; an empty group's id may be reused by the OS. */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends `signal` to every tracked group that still has members; forgets the empty ones. */
export function signalAllGroups(signal: NodeJS.Signals): void {
  for (const pgid of groups) {
    if (!groupExists(pgid)) {
      groups.delete(pgid);
      continue;
    }
    try {
      process.kill(-pgid, signal);
    } catch {
      // Emptied in the meantime.
    }
  }
}

/** Tracks the group a shell leads (its pid is the group id, as it was spawned detached). */
export function trackGroup(pgid: number): void {
  // Groups whose members are all gone are dropped (here and when signalling), so the set stays
  // small and an id is signalled only while its group may still have members — an unrelated
  // group could only reuse it after the PIDs wrapped around in between.
  for (const known of groups) if (!groupExists(known)) groups.delete(known);
  groups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => signalAllGroups('SIGKILL'));
}

/** The tracked groups that still have members (for tests and diagnostics). */
export function liveGroups(): number[] {
  return [...groups].filter(groupExists);
}
