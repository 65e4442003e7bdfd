/** The App with what the screen extras hold now: the open overlay and the custom status line. */
import { useSyncExternalStore } from 'react';
import { App, type AppProps } from './app';
import type { ScreenExtras } from './session/screen-extras';

export function ReplRoot(props: Omit<AppProps, 'overlay' | 'customStatus'> & { extras: ScreenExtras }) {
  const { extras, ...rest } = props;
  const current = useSyncExternalStore(extras.subscribe, extras.getSnapshot);
  return <App {...rest} overlay={current.overlay} customStatus={() => current.statusLine} />;
}
