'use strict';
// A worker of SimHashPool (pool.cjs) under Node: its own instance of the package, which
// answers the pool's messages.
const { parentPort } = require('node:worker_threads');
const api = require('./index.cjs');
const { serve } = require('./pool.cjs');
const { trapped } = require('./args.cjs');
const wasm = require('./node/simhash_wasm.js');

parentPort.on('message', serve(api, (msg, transfer) => parentPort.postMessage(msg, transfer), wasm,
  (e) => trapped(e, api.SimHashError, wasm)));
parentPort.postMessage({ type: 'ready' });
