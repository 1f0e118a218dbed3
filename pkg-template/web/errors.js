// The one error class of the package. Every failure of the wasm core, and of the JS layer
// around it, is thrown as an instance: `e instanceof SimHashError && e instanceof Error`,
// `e.name === 'SimHashError'`, and `e.code` is one of the codes in index.d.ts
// (SimHashErrorCode, e.g. 'EmptyText', 'InvalidOption').
//
// Written once, as an ES module: the browser entries import it (web/errors.js,
// full/errors.js) and scripts/build.sh generates the Node entry's CommonJS form
// (errors.cjs) from it with scripts/esm-to-cjs.mjs.
export class SimHashError extends Error {
  // `index`: the position of the failing document in a list (the wasm core gives it).
  constructor(message, code, index) {
    super(message);
    this.name = 'SimHashError';
    this.code = code;
    if (index !== undefined) this.index = index;
  }
}
