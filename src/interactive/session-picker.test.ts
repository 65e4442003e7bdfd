/** The resume picker's list, from real transcript files. */
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordSessionUse } from '../session/session-use-order';
import { projectDir } from '../session/transcript-paths';
import { commandHeader } from '../skills/command-header';
import { memoryNoteContext } from './memory-append';
import {
  describePickerSession,
  filterPickerSessions,
  formatSize,
  listPickerSessions,
} from './session-picker';

let root: string;
let env: Record<string, string>;
const cwd = '/work/app';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'yoke-picker-'));
  env = { HOME: root, YOKE_HOME: join(root, '.yoke') };
  await mkdir(projectDir(env, cwd), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'user',
    uuid: 'u',
    timestamp: '2026-01-01T00:00:00Z',
    cwd,
    gitBranch: 'main',
    message: { role: 'user', content },
    ...extra,
  });

async function session(n: number, lines: string[], mtimeSec: number) {
  const path = join(projectDir(env, cwd), `${id(n)}.jsonl`);
  await writeFile(path, `${lines.join('\n')}\n`);
  await utimes(path, mtimeSec, mtimeSec);
  return path;
}

describe('resume picker list', () => {
  it("lists this project's sessions newest first with their first typed prompt, branch, age and size", async () => {
    await session(
      1,
      [user('<command-name>/init</command-name>', {}), user('fix the flaky test'), user('later prompt')],
      1000,
    );
    await session(2, [user([{ type: 'text', text: 'add a   --json\nflag' }])], 2000);
    await session(3, [user('current session')], 3000);
    // Only a command typed: labelled by it rather than left without a label.
    await session(4, [user([{ type: 'text', text: commandHeader({ name: 'review' }, 'main') }])], 500);
    const list = await listPickerSessions({ env, cwd, excludeSessionId: id(3) });
    expect(list.map((s) => [s.sessionId, s.label, s.gitBranch])).toEqual([
      [id(2), 'add a --json flag', 'main'],
      [id(1), 'fix the flaky test', 'main'],
      [id(4), '/review main', 'main'],
    ]);
    expect(list[0]?.size).toBeGreaterThan(0);
    expect(describePickerSession(list[0] as never, 2000 * 1000 + 3 * 3600_000)).toMatch(
      /^3h ago\s+\d+ B {2}add a --json flag {2}\[main\]$/,
    );
  });

  it('lists the sessions in the order they were used, whatever the clock stamped, and says when an age is unknown', async () => {
    const now = Date.now() / 1000;
    await session(1, [user('used first')], now - 7200);
    // Used after session 1, while the clock was six years behind.
    await session(2, [user('used second')], now - 6 * 365 * 86_400);
    await session(3, [user('used last')], now - 60);
    for (const n of [1, 2, 3]) recordSessionUse(projectDir(env, cwd), id(n));
    const list = await listPickerSessions({ env, cwd });
    expect(list.map((s) => s.label)).toEqual(['used last', 'used second', 'used first']);
    expect(list.map((s) => describePickerSession(s).split(/\s{2,}/)[0])).toEqual([
      '1m ago',
      'unknown',
      '2h ago',
    ]);
  });

  it('skips tool results and meta lines, and shows a title set at the end of a long transcript', async () => {
    const filler = Array.from({ length: 400 }, (_, i) =>
      JSON.stringify({
        type: 'assistant',
        uuid: `a${i}`,
        message: { content: [{ type: 'text', text: 'x'.repeat(200) }] },
      }),
    );
    await session(
      1,
      [
        user('reminder', { isMeta: true }),
        user([{ type: 'tool_result', tool_use_id: 't', content: 'ls output' }]),
        user('the real first prompt'),
        ...filler,
        JSON.stringify({ type: 'custom-title', customTitle: 'Parser rewrite', sessionId: id(1) }),
      ],
      1000,
    );
    const [only] = await listPickerSessions({ env, cwd });
    expect(only).toMatchObject({
      firstPrompt: 'the real first prompt',
      title: 'Parser rewrite',
      label: 'Parser rewrite',
    });
  });

  it('shows a session that began with a !command as the command typed', async () => {
    await session(
      1,
      [
        user(
          '<bash-input>ls -la</bash-input>\n<bash-stdout>total 20\nREADME.md</bash-stdout><bash-stderr></bash-stderr>',
        ),
      ],
      1000,
    );
    const [only] = await listPickerSessions({ env, cwd });
    expect(only?.label).toBe('!ls -la');
  });

  it('shows a session that began with a #note as the note typed', async () => {
    await session(1, [user(`${memoryNoteContext('run npm test first')}\n\nfix the build`)], 1000);
    const [only] = await listPickerSessions({ env, cwd });
    expect(only?.label).toBe('#run npm test first');
  });

  it('lists a thousand sessions, a few files open at a time', async () => {
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) => session(i + 1, [user(`prompt ${i + 1}`)], 1000 + i)),
    );
    const list = await listPickerSessions({ env, cwd });
    expect(list).toHaveLength(1000);
    expect(list[0]?.label).toBe('prompt 1000');
    expect(list.at(-1)?.label).toBe('prompt 1');
  });

  it('filters by prompt, title, branch or id', async () => {
    await session(1, [user('fix the parser', { gitBranch: 'feature/lexer' })], 1000);
    await session(2, [user('write docs')], 2000);
    const list = await listPickerSessions({ env, cwd });
    expect(filterPickerSessions(list, 'PARSER').map((s) => s.sessionId)).toEqual([id(1)]);
    expect(filterPickerSessions(list, 'lexer').map((s) => s.sessionId)).toEqual([id(1)]);
    expect(filterPickerSessions(list, '000000000002').map((s) => s.sessionId)).toEqual([id(2)]);
    expect(filterPickerSessions(list, '')).toHaveLength(2);
  });

  it('formats sizes for the picker', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(2048)).toBe('2.0 KB');
    expect(formatSize(300 * 1024)).toBe('300 KB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
