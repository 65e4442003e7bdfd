/**
 * The App with what the screen extras hold now: the open overlay, the custom status line and the
 * running background shells.
 */
import { useSyncExternalStore } from 'react';
import { App, type AppProps } from './app';
import type { ScreenExtras } from './session/screen-extras';

export function ReplRoot(
  props: Omit<AppProps, 'overlay' | 'customStatus' | 'backgroundShells'> & { extras: ScreenExtras },
) {
  const { extras, ...rest } = props;
  const current = useSyncExternalStore(extras.subscribe, extras.getSnapshot);
  return (
    <App
      {...rest}
      overlay={current.overlay}
      customStatus={() => current.statusLine}
      backgroundShells={() => current.backgroundShells}
    />
  );
}
