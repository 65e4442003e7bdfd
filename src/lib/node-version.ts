/**
 * The oldest Node.js Yoke runs on (package.json's `engines` says the same; a test holds them
 * together). The entry checks it before loading the app: on an older Node the app fails deep
 * inside (Node 18 lacks `process.getBuiltinModule`) with a stack trace that prints a line of the
 * minified bundle, which tells a user nothing. This file is bundled into the tiny entry script,
 * so it stays free of imports.
 */
export const MIN_NODE_VERSION = '20.16.0';

/** Compares dotted versions numerically (`20.9.0` < `20.16.0`); missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The one line a start on a Node.js older than Yoke needs gets, or undefined when it is new enough. */
export function oldNodeProblem(version: string, execPath: string): string | undefined {
  if (compareVersions(version, MIN_NODE_VERSION) >= 0) return undefined;
  return (
    `yoke: Yoke needs Node.js ${MIN_NODE_VERSION} or later, and this is Node.js ${version} (${execPath}). ` +
    'Install a newer Node.js (from nodejs.org, or with your version manager, e.g. "nvm install 22") and run yoke again.'
  );
}
