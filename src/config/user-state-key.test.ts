import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeFirstNotices } from './model-notices';
import { readStateKey, updateStateKey, userStatePath } from './user-state-key';

let home: string;
let env: Record<string, string>;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'yoke-state-'));
  env = { YOKE_HOME: home };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const stateText = () => readFile(join(home, 'state.json'), 'utf8');

describe('one key of the user state file', () => {
  it('creates the file, readable by the user alone, and reads the key back', async () => {
    await updateStateKey(env, 'notes', () => ['a']);
    expect(userStatePath(env)).toBe(join(home, 'state.json'));
    expect(JSON.parse(await stateText())).toEqual({ notes: ['a'] });
    expect((await stat(join(home, 'state.json'))).mode & 0o777).toBe(0o600);
    expect(await readStateKey(env, 'notes')).toEqual(['a']);
    expect(await readStateKey(env, 'other')).toBeUndefined();
  });

  it('changes only its own key and keeps every other one as it was', async () => {
    const others = {
      projects: { '/work/app': { trusted: true } },
      numbers: [1, 2.5],
      nested: { deep: { x: null } },
    };
    await writeFile(join(home, 'state.json'), JSON.stringify({ ...others, notes: 'old' }));
    await updateStateKey(env, 'notes', (current) => `${String(current)} and new`);
    expect(JSON.parse(await stateText())).toEqual({ ...others, notes: 'old and new' });
  });

  it('never overwrites a state file that is not a JSON object, and says so', async () => {
    for (const broken of ['{"projects": {', '[1, 2]']) {
      await writeFile(join(home, 'state.json'), broken);
      const failure = updateStateKey(env, 'notes', () => 'x');
      await expect(failure).rejects.toThrow(/^Cannot update .*state\.json: .*Fix the file and try again\.$/);
      expect(await stateText()).toBe(broken);
    }
  });
});

describe('takeFirstNotices', () => {
  it('returns each id once, remembering it across runs', async () => {
    const at = () => new Date('2026-12-01T10:00:00Z');
    expect(await takeFirstNotices(env, ['qwen', 'llama'], at)).toEqual({ fresh: ['qwen', 'llama'] });
    expect(await takeFirstNotices(env, ['qwen', 'mistral'], at)).toEqual({ fresh: ['mistral'] });
    expect(await takeFirstNotices(env, ['qwen', 'llama', 'mistral'], at)).toEqual({ fresh: [] });
    expect(JSON.parse(await stateText())).toEqual({
      unknownModelsWarned: {
        qwen: '2026-12-01T10:00:00.000Z',
        llama: '2026-12-01T10:00:00.000Z',
        mistral: '2026-12-01T10:00:00.000Z',
      },
    });
  });

  it('counts every id as new when the state file is unusable, and says why', async () => {
    await writeFile(join(home, 'state.json'), 'not json');
    const result = await takeFirstNotices(env, ['qwen']);
    expect(result.fresh).toEqual(['qwen']);
    expect(result.problem).toMatch(
      /^cannot remember model warnings: Cannot update .*state\.json: invalid JSON at line 1/,
    );
    expect(await stateText()).toBe('not json');
  });
});
