// A worker of SimHashPool in browsers (a module Web Worker): its own instance of this
// build, which answers the pool's messages (pool.js, made from pool.cjs).
import * as api from './index.js';
import { serve } from './pool.js';

const reply = serve(api, (msg, transfer) => self.postMessage(msg, transfer));
self.addEventListener('message', (e) => reply(e.data));
self.postMessage({ type: 'ready' });
