// A worker of SimHashPool in browsers (a module Web Worker): its own instance of this
// build, which answers the pool's messages (pool.js). It initialises the wasm itself,
// without the entry's top-level await, so bundlers that build workers as classic scripts
// (Vite's default worker format, iife) can bundle it; messages that come before the wasm
// is ready wait for it, in order.
import init, * as wasm from './simhash_wasm.js';
import { SimHashError } from './errors.js';
import { guard, trapped } from './args.js';
import { serve } from './pool.js';

const ready = init({ module_or_path: new URL('./simhash_wasm_bg.wasm', import.meta.url) }).then(() => {
  wasm.__setErrorClass(SimHashError);
  return serve(guard({ ...wasm }, SimHashError), (msg, transfer) => self.postMessage(msg, transfer), wasm,
    (e) => trapped(e, SimHashError, wasm));
});
self.addEventListener('message', (e) => { ready.then((reply) => reply(e.data)); });
ready.then(() => self.postMessage({ type: 'ready' }));
