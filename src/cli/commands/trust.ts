/**
 * `yoke trust [dir]`, `yoke trust --list` and `yoke trust --remove [dir]`: record that a folder's
 * project settings may widen permissions (config/project-trust.ts), see which folders are
 * trusted, and take trust back. Plain lines on stdout; problems with the state files on stderr.
 */
import { resolve } from 'node:path';
import type { Env } from '../../config/paths';
import {
  projectTrust,
  TrustError,
  type TrustRecord,
  trustedFolders,
  trustFolder,
  untrustFolder,
} from '../../config/project-trust';
import { CliUsageError } from '../errors';

export type TrustCommandContext = {
  cwd: string;
  env: Env;
  print: (line: string) => void;
  warn: (line: string) => void;
};

export const TRUST_USAGE = 'usage: yoke trust [dir] | yoke trust --list | yoke trust --remove [dir]';

const describeRecord = (record: TrustRecord) =>
  record.file.endsWith('.claude.json') ? `${record.file} (Claude Code)` : record.file;

async function list(context: TrustCommandContext): Promise<number> {
  const { records, problems } = await trustedFolders(context.env);
  for (const problem of problems) context.warn(problem);
  if (records.length === 0) context.print('No trusted folders. Run "yoke trust" in a project to trust it.');
  const width = Math.max(0, ...records.map((r) => r.folder.length));
  for (const record of records) context.print(`${record.folder.padEnd(width)}  ${describeRecord(record)}`);
  const here = await projectTrust(context.cwd, context.env);
  context.print(
    here.via
      ? `This folder is trusted (through ${here.via.folder}).`
      : 'This folder is not trusted: its project settings cannot allow tools or choose acceptEdits.',
  );
  return 0;
}

async function remove(dir: string, context: TrustCommandContext): Promise<number> {
  const result = await untrustFolder(dir, context.env);
  if (result.problem) context.warn(result.problem);
  context.print(
    result.removed ? `Removed trust for ${result.folder}.` : `Yoke had no trust record for ${result.folder}.`,
  );
  const via = result.stillTrustedVia;
  if (!via) return 0;
  const how = via.file.endsWith('.claude.json')
    ? `Claude Code's record in ${via.file}; change it there`
    : `the record for ${via.folder}; run "yoke trust --remove ${via.folder}"`;
  context.print(`It is still trusted through ${how}.`);
  return 1;
}

async function trust(dir: string, context: TrustCommandContext): Promise<number> {
  try {
    const { folder, problem } = await trustFolder(dir, context.env);
    if (problem) context.warn(problem);
    context.print(
      `Trusted ${folder} and its subfolders: their .yoke/settings.json and .claude/settings.json may now allow tools and choose acceptEdits.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof TrustError) throw new CliUsageError(error.message);
    throw error;
  }
}

/** Runs `yoke trust …` with the words after `trust`; returns the exit code. */
export async function runTrustCommand(
  args: readonly string[],
  context: TrustCommandContext,
): Promise<number> {
  const flags = args.filter((a) => a.startsWith('-'));
  const dirs = args.filter((a) => !a.startsWith('-'));
  if (dirs.length > 1 || flags.length > 1) throw new CliUsageError(TRUST_USAGE);
  const dir = resolve(context.cwd, dirs[0] ?? '.');
  switch (flags[0]) {
    case undefined:
      return trust(dir, context);
    case '--list':
      if (dirs.length > 0) throw new CliUsageError(TRUST_USAGE);
      return list(context);
    case '--remove':
      return remove(dir, context);
    default:
      throw new CliUsageError(`unknown option ${flags[0]}; ${TRUST_USAGE}`);
  }
}
