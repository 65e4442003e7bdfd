// Types for scripts/esm-interop-memo.mjs, which test/build/esm-interop-memo.test.ts imports.
export function memoizeToEsm(code: string, file: string): string;
