// Types for scripts/lazy-intl.mjs, which src/tui/terminal/lazy-intl.test.ts imports.
export type LazyIntlFile = { file: RegExp; segmenters: number; rgiEmoji: number; fastPath?: boolean };
export const LAZY_INTL_FILES: LazyIntlFile[];
export function lazyIntl(
  contents: string,
  path: string,
  expected: LazyIntlFile,
  rgiShortcutModule?: string,
): string;
export function graphemeFastPath(contents: string, path: string, singleWidthModule: string): string;
