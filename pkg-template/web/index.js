// Browser and bundler entry: the --target web build, initialised once with top-level
// await, so `import { SimHasher } from 'simhash-wasm'` is ready to use as in Node.
import init from './simhash_wasm.js';

await init({ module_or_path: new URL('./simhash_wasm_bg.wasm', import.meta.url) });

export * from './simhash_wasm.js';
