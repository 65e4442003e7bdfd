// esbuild's `__toESM` (a CommonJS module seen from an ES module) makes a fresh copy of the
// module's exports for every importing module: a getter per property, each a new closure. In
// the Ink bundle 28 modules import React and 12 import `node:process` (~100 properties), ~2,500
// getters made while the REPL's first frame waits. `memoizeToEsm` makes each copy once per module
// object and reuses it — as an ES module namespace is one object however many modules import it —
// and makes it again if the module has gained or lost properties since (a CommonJS module still
// loading, in a require cycle).
const HELPER = /\bvar ([\w$]+) ?= ?\(([\w$]+), ?([\w$]+), ?([\w$]+)\) ?=> ?\(\4 ?= ?\2 ?!= ?null ?\?/;
const FRESH = '__yokeFreshToEsm';

/** `code` (an esbuild bundle) with its `__toESM` memoized; throws if esbuild's helper reads otherwise. */
export function memoizeToEsm(code, file) {
  const helper = HELPER.exec(code);
  if (!helper || code.includes(FRESH))
    throw new Error(`esm-interop-memo: ${file} no longer defines esbuild's __toESM as expected`);
  const name = helper[1];
  // Renamed in place; the memo, a function declaration, is hoisted above every use.
  const renamed = `${code.slice(0, helper.index)}var ${FRESH}${code.slice(helper.index + 4 + name.length)}`;
  const memo = `function ${name}(mod, isNodeMode, target) {
  if (target !== undefined || mod == null || (typeof mod !== "object" && typeof mod !== "function"))
    return ${FRESH}(mod, isNodeMode, target);
  const seen = (${name}.seen ??= [new WeakMap(), new WeakMap()])[isNodeMode ? 1 : 0];
  const keys = Object.getOwnPropertyNames(mod).length;
  const copy = seen.get(mod);
  if (copy !== undefined && copy.keys === keys) return copy.namespace;
  const namespace = ${FRESH}(mod, isNodeMode);
  seen.set(mod, { namespace, keys });
  return namespace;
}
`;
  // Before a source map's comment, which stays the file's last line.
  const mapComment = renamed.lastIndexOf('\n//# sourceMappingURL=');
  return mapComment === -1
    ? `${renamed}\n${memo}`
    : `${renamed.slice(0, mapComment + 1)}${memo}${renamed.slice(mapComment + 1)}`;
}
