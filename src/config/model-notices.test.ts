import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeFirstNotices } from './model-notices';

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

  it('keeps the trust records and every other key of the shared state file', async () => {
    const others = { projects: { '/work/app': { trusted: true } }, nested: { deep: { x: null } } };
    await writeFile(join(home, 'state.json'), JSON.stringify(others));
    await takeFirstNotices(env, ['qwen'], () => new Date('2026-12-01T10:00:00Z'));
    expect(JSON.parse(await stateText())).toEqual({
      ...others,
      unknownModelsWarned: { qwen: '2026-12-01T10:00:00.000Z' },
    });
  });

  it('counts every id as new when the state file is unusable, says why, and loses nothing', async () => {
    await writeFile(join(home, 'state.json'), 'not json');
    const result = await takeFirstNotices(env, ['qwen']);
    expect(result.fresh).toEqual(['qwen']);
    expect(result.problem).toMatch(/^model warnings: .*state\.json: .*Yoke goes on without it/);
    const aside = (await readdir(home)).find((name) => name.startsWith('state.json.corrupt-'));
    expect(aside).toMatch(/^state\.json\.corrupt-\d{4}-\d\d-\d\dT/);
    expect(await readFile(join(home, aside as string), 'utf8')).toBe('not json');
    expect(JSON.parse(await stateText())).toHaveProperty('unknownModelsWarned.qwen');
  });
});
