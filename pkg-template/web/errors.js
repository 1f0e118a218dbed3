// The one error class of the package (browser/bundler build; Node's is errors.cjs).
// Every failure of the wasm core is thrown as an instance: `e instanceof SimHashError &&
// e instanceof Error`, `e.name === 'SimHashError'`, and `e.code` says what failed.
export class SimHashError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'SimHashError';
    this.code = code;
  }
}
