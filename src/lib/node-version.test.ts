import { describe, expect, it } from 'vitest';
import { compareVersions, MIN_NODE_VERSION, oldNodeProblem } from './node-version';

describe('oldNodeProblem', () => {
  it('passes the minimum and later, numerically (20.16 is newer than 20.9)', () => {
    expect(oldNodeProblem(MIN_NODE_VERSION, '/usr/bin/node')).toBeUndefined();
    expect(oldNodeProblem('22.1.0', '/usr/bin/node')).toBeUndefined();
    expect(compareVersions('20.9.0', '20.16.0')).toBeLessThan(0);
  });

  it('names the version needed, the one running and where it is, and how to get another', () => {
    expect(oldNodeProblem('18.20.4', '/usr/bin/node')).toBe(
      `yoke: Yoke needs Node.js ${MIN_NODE_VERSION} or later, and this is Node.js 18.20.4 (/usr/bin/node). ` +
        'Install a newer Node.js (from nodejs.org, or with your version manager, e.g. "nvm install 22") and run yoke again.',
    );
    expect(oldNodeProblem('20.9.0', 'node')).toContain('this is Node.js 20.9.0');
  });
});
