// Stands in for `yoga-layout` inside the Ink vendor bundle (scripts/build.mjs). The package's
// entry compiles its WebAssembly with a top-level await, which a CommonJS bundle cannot hold; this
// module exports the same object, filled in when `yogaReady` settles. Ink reads it only while
// rendering, and src/tui/ink-runtime.ts awaits `yogaReady` before the first render.
import { loadYoga } from '../node_modules/yoga-layout/dist/src/load.js';

const Yoga = {};
export const yogaReady = loadYoga().then((loaded) => {
  Object.assign(Yoga, loaded);
});
export * from '../node_modules/yoga-layout/dist/src/generated/YGEnums.js';
export default Yoga;
