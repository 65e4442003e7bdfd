/**
 * The journal of in-flight temp files: a real process killed in the middle of an atomic write
 * leaves its temp file beside the target, and the next start removes it — and nothing else.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write';
import { setWriteJournalDir, sweepStaleTempFiles, TEMP_FILE_PATTERN } from './write-journal';

/** The child: starts an atomic write with the journal on, says where it stopped, then hangs. */
const CHILD_SOURCE = `
import { writeFileAtomic } from './atomic-write';
import { setWriteJournalDir } from './write-journal';

const [journal, target, ending] = process.argv.slice(2);
setWriteJournalDir(journal);
// Stays alive until killed: an exit of its own would let the exit hook remove the temp file.
setInterval(() => {}, 60_000);
writeFileAtomic(target, Buffer.from('half of the new content'), {
  beforeStep: (step, tempPath) => {
    if (step !== 'rename') return undefined;
    process.stdout.write(tempPath + '\\n');
    // 'exit': a forced exit (process.exit) in the middle of the write; otherwise wait to be killed.
    if (ending === 'exit') process.exit(3);
    return new Promise(() => {});
  },
});
`;

let childScript = '';
const host = hostname().replace(/[^A-Za-z0-9-]/g, '_');

beforeAll(async () => {
  childScript = join(mkdtempSync(join(tmpdir(), 'yoke-journal-child-')), 'child.mjs');
  await build({
    stdin: { contents: CHILD_SOURCE, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: childScript,
    logLevel: 'error',
  });
});

afterEach(() => setWriteJournalDir(undefined));

/** Runs the child until its write is about to rename, then SIGKILLs it; resolves to the temp path. */
function killMidWrite(journal: string, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [childScript, journal, target], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.endsWith('\n')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    // 'close', not 'exit': Node may report the exit before the child's output is read.
    child.on('close', (_code, signal) =>
      signal === 'SIGKILL' ? resolve(out.trim()) : reject(new Error(`child ended by itself: ${_code}`)),
    );
  });
}

/** A pid that certainly ran on this machine and has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

function scratch() {
  const root = mkdtempSync(join(tmpdir(), 'yoke-journal-'));
  const journal = join(root, 'home', 'pending-writes');
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  return { journal, project };
}

/** Runs the child with `exit`: it calls process.exit mid-write; resolves to the temp path. */
function exitMidWrite(journal: string, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, journal, target, 'exit'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 3 ? resolve(out.trim()) : reject(new Error(`child exited ${code}`)),
    );
  });
}

describe('the write journal', () => {
  it('is cleaned at once by a process that exits in the middle of a write', async () => {
    const { journal, project } = scratch();
    const target = join(project, 'notes.txt');
    writeFileSync(target, 'old');
    const tempPath = await exitMidWrite(journal, target);
    expect(tempPath).toContain('.notes.txt.yoke-');
    expect(readdirSync(project)).toEqual(['notes.txt']);
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(journal)).toEqual([]);
  });

  it('lets the next start remove the temp file of a process killed mid-write', async () => {
    const { journal, project } = scratch();
    const target = join(project, 'settings.json');
    writeFileSync(target, 'the old content');
    const tempPath = await killMidWrite(journal, target);

    // What the kill left: the flushed temp file beside the target, and its journal entry.
    expect(TEMP_FILE_PATTERN.test(tempPath.slice(project.length + 1))).toBe(true);
    expect(readFileSync(tempPath, 'utf8')).toBe('half of the new content');
    expect(readdirSync(journal)).toHaveLength(1);

    expect(await sweepStaleTempFiles(journal)).toEqual([tempPath]);
    expect(readdirSync(project)).toEqual(['settings.json']);
    expect(readFileSync(target, 'utf8')).toBe('the old content');
    expect(readdirSync(journal)).toEqual([]);
  });

  it('records a write only while it is in flight', async () => {
    const { journal, project } = scratch();
    setWriteJournalDir(journal);
    let during: string[] = [];
    let recorded = '';
    await writeFileAtomic(join(project, 'a.txt'), Buffer.from('x'), {
      beforeStep: (step, tempPath) => {
        if (step !== 'rename') return;
        during = readdirSync(journal);
        recorded = readFileSync(join(journal, during[0] as string), 'utf8');
        expect(recorded).toBe(tempPath);
      },
    });
    expect(during).toHaveLength(1);
    expect(readdirSync(journal)).toEqual([]);
  });

  it("never removes a user's file, nor what a running process or another machine has in flight", async () => {
    const { journal, project } = scratch();
    mkdirSync(journal, { recursive: true });
    const gone = await deadPid();
    const entry = (name: string, pid: number, path: string, machine = host) =>
      writeFileSync(join(journal, `${machine}.${pid}.${name.padEnd(12, '0')}`), path);

    // A user's file shaped like a temp file, but recorded by no one.
    const lookalike = join(project, '.notes.md.yoke-0123456789ab.tmp');
    writeFileSync(lookalike, 'mine');
    // A dead process's entry naming a path that is not a temp file (a forged or corrupt entry).
    const important = join(project, 'important.txt');
    writeFileSync(important, 'keep');
    entry('aaaaaa', gone, important);
    // This process's own write in flight.
    const ownTemp = join(project, '.own.txt.yoke-aaaaaaaaaaaa.tmp');
    writeFileSync(ownTemp, 'in flight');
    entry('bbbbbb', process.pid, ownTemp);
    // Another machine's entry for a dead-looking pid.
    const remoteTemp = join(project, '.remote.txt.yoke-bbbbbbbbbbbb.tmp');
    writeFileSync(remoteTemp, 'theirs');
    entry('cccccc', gone, remoteTemp, 'other-host');
    // A relative path is never trusted.
    entry('dddddd', gone, '.rel.txt.yoke-cccccccccccc.tmp');

    expect(await sweepStaleTempFiles(journal)).toEqual([]);
    for (const path of [lookalike, important, ownTemp, remoteTemp]) expect(existsSync(path)).toBe(true);
    // The dead process's entries are done with; the live and foreign ones stay.
    expect(readdirSync(journal).sort()).toEqual(
      [`${host}.${process.pid}.bbbbbb000000`, 'other-host.' + gone + '.cccccc000000'].sort(),
    );
  });

  it('is quiet when there is no journal yet', async () => {
    expect(await sweepStaleTempFiles(join(tmpdir(), 'yoke-no-such-journal'))).toEqual([]);
  });
});
