/**
 * Kills a real process that is writing a transcript (SIGKILL, at random moments, 30 times) and
 * checks after each kill that the file loads, nothing the writer reported as written is lost, and
 * the resumed history is one the API accepts. Each run continues the previous run's session.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSession } from './resume';
import { loadTranscript } from './transcript-loader';
import { repairToolPairs } from './transcript-repair';
import { tempHome } from './transcript-test-support';

/** The child: a writer appending rounds (prompt, tool call, large result, answer) until killed. */
const CHILD_SOURCE = `
import { writeSync } from 'node:fs';
import { createToolResultMessage, createUserMessage } from './messages';
import { assistant } from './transcript-test-support';
import { TranscriptWriter } from './transcript-writer';

const [path, sessionId, cwd, parent] = process.argv.slice(2);
const writer = new TranscriptWriter({ path, sessionId, cwd, parentUuid: parent === '' ? null : parent });
const ack = (uuid) => writeSync(1, uuid + '\\n');
let i = 0;
async function main() {
  for (;;) {
    const id = 'toolu_' + process.pid + '_' + i;
    const steps = [
      createUserMessage('prompt ' + i),
      assistant([{ type: 'tool_use', id, name: 'Bash', input: { command: 'make ' + i } }]),
      createToolResultMessage({ type: 'tool_result', tool_use_id: id, content: 'x'.repeat(Math.floor(Math.random() * 150_000)) }),
      assistant([{ type: 'text', text: 'done ' + i }]),
    ];
    for (const m of steps) {
      writer.append(m);
      ack(m.uuid);
      await new Promise((r) => setTimeout(r, Math.random() * 3));
    }
    i++;
  }
}
main();
`;

let childScript = '';

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-crash-child-'));
  childScript = join(dir, 'child.mjs');
  await build({
    stdin: { contents: CHILD_SOURCE, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: childScript,
    define: { YOKE_VERSION: '"crash-test"' },
    logLevel: 'error',
  });
});

function runUntilKilled(args: string[], killAfterMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [childScript, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      // The clock starts once the child writes, so every run is killed mid-session.
      timer ??= setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.on('error', reject);
    // 'close', not 'exit': the acknowledgements still in the pipe when the child dies are read too.
    child.on('close', (_code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`child exited on its own (${signal ?? _code})`));
      // Only complete acknowledgement lines count: a kill can cut the last one.
      else resolve(out.split('\n').filter((l) => /^[0-9a-f-]{36}$/.test(l)));
    });
  });
}

describe('crash safety', () => {
  // Thirty Node processes started one after another: ~3 s alone, 22 s measured on the 2-core
  // machine under other builds, too near vitest's 30 s.
  it('survives 30 random SIGKILLs mid-write: every acknowledged message is resumable', {
    timeout: 120_000,
  }, async () => {
    const { env, cwd } = tempHome();
    let session = await resolveSession({ cwd, env, model: 'claude-sonnet-5-5' });
    const acknowledged: string[] = [];
    for (let run = 0; run < 30; run++) {
      const args = [session.transcriptPath, session.sessionId, cwd, session.parentUuid ?? ''];
      acknowledged.push(...(await runUntilKilled(args, 5 + Math.random() * 60)));

      const loaded = await loadTranscript(session.transcriptPath);
      const onDisk = new Set(loaded.messages.map((m) => m.uuid));
      expect(acknowledged.filter((uuid) => !onDisk.has(uuid))).toEqual([]);

      session = await resolveSession({ cwd, env, model: 'claude-sonnet-5-5', continue: true });
      expect(session.messages.length).toBeGreaterThanOrEqual(acknowledged.length);
      // The history is API-valid: nothing left to repair.
      const check = repairToolPairs(session.messages);
      expect([...check.synthesized, ...check.droppedResults]).toEqual([]);
    }
    expect(acknowledged.length).toBeGreaterThan(30);
  });
});
