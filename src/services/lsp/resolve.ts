/**
 * Whether a server can serve a file: the nearest folder with one of its root markers, and its
 * binary. A project's own copies (node_modules/.bin, .venv) run only in a trusted folder: a
 * planted binary there would run as soon as the agent touched a file. Each miss says why.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import type { ServerSpec } from './servers';

export type ResolvedServer = {
  kind: 'ready';
  spec: ServerSpec;
  root: string;
  command: string;
  /** `project` when the root's own tool folder supplied the binary, else `PATH`. */
  via: 'project' | 'PATH';
  /** The project's virtualenv interpreter, for Python servers (trusted folders only). */
  python?: string;
};

export type Resolution =
  | ResolvedServer
  | { kind: 'no-marker'; spec: ServerSpec; reason: string }
  | { kind: 'no-binary'; spec: ServerSpec; root: string; reason: string };

export type ResolveOptions = {
  /** Whether the project folder is trusted (config/project-trust.ts). */
  trusted: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** Folders never taken as a root (the home folder, `/`): a stray package.json there is no project. */
  stopAt: readonly string[];
};

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function executable(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The nearest folder at or above `dir` that holds one of the markers. */
export async function findRoot(
  dir: string,
  markers: readonly string[],
  stopAt: readonly string[],
): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    if (stopAt.includes(current)) return undefined;
    for (const marker of markers) if (await exists(join(current, marker))) return current;
    if (dirname(current) === current) return undefined;
  }
}

async function onPath(binary: string, env: ResolveOptions['env']): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, binary);
    if (await executable(candidate)) return candidate;
  }
  return undefined;
}

async function projectPython(root: string): Promise<string | undefined> {
  for (const venv of ['.venv', 'venv']) {
    const python = join(root, venv, 'bin', 'python');
    if (await executable(python)) return python;
  }
  return undefined;
}

/** Finds the root and the binary of `spec` for a file in `dir`. */
export async function resolveServer(
  spec: ServerSpec,
  dir: string,
  options: ResolveOptions,
): Promise<Resolution> {
  const root = await findRoot(dir, spec.markers, options.stopAt);
  if (!root)
    return {
      kind: 'no-marker',
      spec,
      reason: `no ${spec.markers.join(' / ')} in ${dir} or a folder above it`,
    };
  const python = spec.id === 'pyright' && options.trusted ? await projectPython(root) : undefined;
  let ignored: string | undefined;
  for (const binDir of spec.projectBinDirs) {
    const candidate = join(root, binDir, spec.binary);
    if (!(await executable(candidate))) continue;
    if (options.trusted) return { kind: 'ready', spec, root, command: candidate, via: 'project', python };
    ignored ??= candidate;
  }
  const command = await onPath(spec.binary, options.env);
  if (command) return { kind: 'ready', spec, root, command, via: 'PATH', python };
  const untrusted = ignored
    ? `; the project's ${ignored} is not used because the folder is not trusted (\`yoke trust\`)`
    : '';
  return {
    kind: 'no-binary',
    spec,
    root,
    reason: `${spec.binary} is not on PATH${untrusted}`,
  };
}
