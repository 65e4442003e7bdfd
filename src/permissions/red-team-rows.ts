/** The row shape of the red-team attack sets (red-team-*-cases.ts): a corpus case with its class. */
import type { CorpusCase, Verdict } from './corpus-test-support';

export type RedTeamCase = CorpusCase & { cls: string };

/** One row per command, all of one class and verdict. */
export const rows = (
  cls: string,
  expect: Verdict,
  cmds: readonly string[],
  extra: Partial<CorpusCase> = {},
): RedTeamCase[] => cmds.map((cmd) => ({ cls, cmd, expect, ...extra }));
