/** How a background shell is named to the model and the user, shared by TaskOutput and TaskStop. */
import type { BackgroundShellInfo } from './shells';

/** The shell's description, or the head of its command when it was given none. */
export function shellDescription(shell: BackgroundShellInfo): string {
  if (shell.description) return shell.description;
  const firstLine = shell.command.trim().split('\n')[0] ?? '';
  return firstLine.length > 60 ? `${firstLine.slice(0, 57)}...` : firstLine;
}

export function shellLabel(shell: BackgroundShellInfo): string {
  return `${shell.id} (${shellDescription(shell)})`;
}

/** "running", "completed with exit code 0", "killed after its timeout", … */
export function shellStatusText(shell: BackgroundShellInfo): string {
  if (shell.status === 'running') return 'running';
  if (shell.status === 'killed') return shell.timedOut ? 'killed after its timeout' : 'killed';
  if (shell.exitCode !== null) return `${shell.status} with exit code ${shell.exitCode}`;
  return `${shell.status}${shell.signal ? ` (signal ${shell.signal})` : ''}`;
}
