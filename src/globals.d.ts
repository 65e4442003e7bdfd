/** Replaced at build time (esbuild `define`, vitest `define`) with the package version. */
declare const YOKE_VERSION: string;

/** Replaced at build time (esbuild `define`) with a hash of the app bundle: the code cache's key. */
declare const YOKE_BUILD_ID: string;

declare module '*.md' {
  const text: string;
  export default text;
}
