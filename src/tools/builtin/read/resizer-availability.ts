/**
 * Whether Read can shrink images: `sharp` and its prebuilt native part for this platform must be
 * installed. Checked by looking for the files only; loading sharp costs tens of milliseconds that
 * a start must not pay for a tool that may never read an image.
 */
import { findInstalledFile } from '../../../lib/installed-files';
import type { ToolAvailability } from '../../tool';

/** The native packages sharp tries for this platform, in its own order (glibc, musl, then wasm). */
function nativePackages(platform: string, arch: string): string[] {
  const names = [`@img/sharp-${platform}-${arch}`];
  if (platform === 'linux') names.push(`@img/sharp-linuxmusl-${arch}`);
  names.push('@img/sharp-wasm32');
  // Hoisted beside sharp, or inside it.
  return names.flatMap((name) => [`${name}/package.json`, `sharp/node_modules/${name}/package.json`]);
}

export function imageResizerAvailability(
  from: string = import.meta.url,
  platform: string = process.platform,
  arch: string = process.arch,
): ToolAvailability {
  const consequence =
    'images too large for the API (over 5 MB encoded, or 8000 pixels on a side) cannot be shrunk, so Read refuses them';
  if (!findInstalledFile(from, ['sharp/package.json'])) {
    return { status: 'degraded', reason: `${consequence} (the sharp package is not installed).` };
  }
  if (findInstalledFile(from, nativePackages(platform, arch))) return { status: 'available' };
  return {
    status: 'degraded',
    reason:
      `${consequence}: sharp has no prebuilt binary for ${platform}-${arch} here ` +
      `(@img/sharp-${platform}-${arch} is not installed; reinstall without --omit=optional).`,
  };
}
