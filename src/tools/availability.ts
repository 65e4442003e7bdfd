/**
 * What of a session's tool pool can work on this machine. A tool that cannot work is taken out
 * of the pool (the model is never offered a tool whose every call fails); one that works only in
 * part stays. Either way the reason is reported once, as one line per cause, and kept as data
 * for a later `/doctor`.
 */
import type { AnyTool } from './tool';

type Env = Readonly<Record<string, string | undefined>>;

/** One cause, with every tool it affects (ripgrep missing affects Grep and Glob alike). */
export type AvailabilityProblem = {
  status: 'unavailable' | 'degraded';
  tools: string[];
  reason: string;
};

export type AvailabilityCheck = {
  /** The pool without the unavailable tools, in the same order. */
  offered: AnyTool[];
  problems: AvailabilityProblem[];
};

export function checkToolAvailability(tools: readonly AnyTool[], env: Env): AvailabilityCheck {
  const offered: AnyTool[] = [];
  const problems: AvailabilityProblem[] = [];
  for (const tool of tools) {
    const availability = tool.availability(env);
    if (availability.status !== 'unavailable') offered.push(tool);
    if (availability.status === 'available') continue;
    const same = problems.find((p) => p.status === availability.status && p.reason === availability.reason);
    if (same) same.tools.push(tool.name);
    else problems.push({ status: availability.status, tools: [tool.name], reason: availability.reason });
  }
  return { offered, problems };
}

/** The line a problem is reported with, e.g. "Grep and Glob are not available: ripgrep was not found…". */
export function describeAvailabilityProblem(problem: AvailabilityProblem): string {
  const names = problem.tools;
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return problem.status === 'unavailable'
    ? `${list} ${names.length === 1 ? 'is' : 'are'} not available: ${problem.reason}`
    : `${list} ${names.length === 1 ? 'works' : 'work'} only in part: ${problem.reason}`;
}
