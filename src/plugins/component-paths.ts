/**
 * Where a plugin's parts are: the default layout (`commands/`, `skills/`, `agents/`,
 * `hooks/hooks.json`, `.mcp.json`) plus the paths its manifest adds. A manifest path is written
 * relative to the plugin (`./…`) and must stay inside it once symbolic links are resolved: a
 * plugin may not reach into the rest of the disk by naming `../` or a link that leaves its folder.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { isWithin } from '../lib/path-within';
import { realPathOrUndefined } from './real-path';

export type ComponentKind = 'commands' | 'skills' | 'agents';

export type ResolvedEntry = { path: string; isDirectory: boolean };

/** A path that cannot be used; the message completes `<manifest>: "<field>": …`. */
export class ComponentPathError extends Error {}

/**
 * Resolves one manifest path against the plugin's real root. It must start with `./`, exist, and
 * resolve (symbolic links followed) to a place inside the plugin.
 */
export async function resolveComponentPath(realRoot: string, value: string): Promise<ResolvedEntry> {
  if (isAbsolute(value) || !value.startsWith('./')) {
    throw new ComponentPathError(`"${value}" must be a path inside the plugin starting with "./"`);
  }
  const joined = resolve(realRoot, value);
  if (!isWithin(joined, realRoot)) throw new ComponentPathError(`"${value}" leaves the plugin's folder`);
  const real = await realPathOrUndefined(joined);
  if (real === undefined) throw new ComponentPathError(`"${value}" does not exist in the plugin`);
  if (!isWithin(real, realRoot)) {
    throw new ComponentPathError(`"${value}" is a link to ${real}, outside the plugin's folder`);
  }
  const info = await stat(real);
  return { path: real, isDirectory: info.isDirectory() };
}

/** The default folder of a kind, when the plugin has it (and it stays inside the plugin). */
export async function defaultComponentDir(
  realRoot: string,
  kind: ComponentKind,
): Promise<string | undefined> {
  const real = await realPathOrUndefined(join(realRoot, kind));
  if (real === undefined || !isWithin(real, realRoot)) return undefined;
  const info = await stat(real);
  return info.isDirectory() ? real : undefined;
}

/** A default file (`hooks/hooks.json`, `.mcp.json`), when present inside the plugin. */
export async function defaultComponentFile(
  realRoot: string,
  relativePath: string,
): Promise<string | undefined> {
  const real = await realPathOrUndefined(join(realRoot, relativePath));
  if (real === undefined || !isWithin(real, realRoot)) return undefined;
  const info = await stat(real);
  return info.isFile() ? real : undefined;
}
