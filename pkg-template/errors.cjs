'use strict';
// The one error class of the package (Node, CommonJS; the browser build has the same
// class in web/errors.js). Every failure of the wasm core is thrown as an instance:
// `e instanceof SimHashError && e instanceof Error`, `e.name === 'SimHashError'`, and
// `e.code` is one of the codes in index.d.ts (e.g. 'EmptyText', 'InvalidOption').
class SimHashError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'SimHashError';
    this.code = code;
  }
}
module.exports = { SimHashError };
