/**
 * Loads a package that Yoke can do without (an image resizer, a PDF library). When it is not
 * installed the caller falls back to a plainer behaviour instead of failing.
 */
// Process-wide on purpose, like Node's own module cache: a package loads once per process.
const cache = new Map<string, Promise<unknown>>();

export function loadOptionalModule<T>(name: string): Promise<T | undefined> {
  let pending = cache.get(name);
  if (!pending) {
    // A non-literal specifier keeps the bundler from trying to resolve the package at build time.
    const specifier: string = name;
    pending = import(specifier).catch(() => undefined);
    cache.set(name, pending);
  }
  return pending as Promise<T | undefined>;
}
