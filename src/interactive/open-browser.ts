/**
 * Opens an address in the user's browser, for a sign-in: `$BROWSER` when set (the convention
 * many tools follow), else the desktop's opener (`open` on macOS, `xdg-open` under X11/Wayland).
 * The address is always printed too, so a terminal on a remote machine still works. Only http(s)
 * addresses are opened: the URL comes from a server, and a `file:` or custom-scheme URL could make
 * the desktop run something. The program gets the URL as one argument, never through a shell.
 */
import { spawn } from 'node:child_process';

type Env = Readonly<Record<string, string | undefined>>;

export type BrowserOpening = { opened: true; with: string } | { opened: false; why: string };

export function browserCommand(env: Env, platform: NodeJS.Platform = process.platform): string | undefined {
  const chosen = env.BROWSER?.split(':')[0]?.trim();
  if (chosen) return chosen;
  if (platform === 'darwin') return 'open';
  if (platform === 'linux' && (env.DISPLAY || env.WAYLAND_DISPLAY)) return 'xdg-open';
  return undefined;
}

export function openInBrowser(
  url: URL,
  env: Env,
  platform: NodeJS.Platform = process.platform,
): BrowserOpening {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { opened: false, why: `not a web address (${url.protocol})` };
  const command = browserCommand(env, platform);
  if (!command) return { opened: false, why: 'no browser found (set $BROWSER)' };
  try {
    const child = spawn(command, [url.href], { detached: true, stdio: 'ignore', env: { ...env } });
    // A missing program is reported on the event, after the spawn returned: nothing more to do then.
    child.on('error', () => {});
    child.unref();
    return { opened: true, with: command };
  } catch (error) {
    return { opened: false, why: (error as Error).message };
  }
}
