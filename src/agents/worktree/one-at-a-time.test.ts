import { describe, expect, it } from 'vitest';
import { oneAtATimeIn } from './one-at-a-time';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('one piece of worktree work at a time per repository', () => {
  it('runs work for one repository in the order asked, never two at once', async () => {
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all(['a', 'b', 'c'].map((n) => oneAtATimeIn('/repo-one', job(n))));
    expect(results).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('passes a failure to its caller and goes on with the next', async () => {
    const failing = oneAtATimeIn('/repo-two', async () => {
      throw new Error('git said no');
    });
    const next = oneAtATimeIn('/repo-two', async () => 'ran');
    await expect(failing).rejects.toThrow('git said no');
    await expect(next).resolves.toBe('ran');
  });

  it('lets two repositories work at the same time', async () => {
    let release: () => void = () => undefined;
    const held = oneAtATimeIn('/repo-three', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(oneAtATimeIn('/repo-four', async () => 'free')).resolves.toBe('free');
    release();
    await held;
  });
});
