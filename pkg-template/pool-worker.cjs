'use strict';
// A worker of SimHashPool (pool.cjs) under Node: its own instance of the package, which
// answers the pool's messages.
const { parentPort } = require('node:worker_threads');
const api = require('./index.cjs');
const { serve } = require('./pool.cjs');

parentPort.on('message', serve(api, (msg, transfer) => parentPort.postMessage(msg, transfer), require('./node/simhash_wasm.js')));
parentPort.postMessage({ type: 'ready' });
