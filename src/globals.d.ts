/** Replaced at build time (esbuild `define`, vitest `define`) with the package version. */
declare const YOKE_VERSION: string;

declare module '*.md' {
  const text: string;
  export default text;
}
