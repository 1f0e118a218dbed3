'use strict';
// Node entry (CommonJS): the --target nodejs build, which loads its .wasm synchronously,
// plus the SimHashError class (registered with the wasm so it throws instances of it), the
// argument checks (args.cjs) and the Node-only file helpers (saveIndex/loadIndex,
// saveSeen/loadSeen).
const wasm = require('./node/simhash_wasm.js');
const { SimHashError } = require('./errors.cjs');
const { guard } = require('./args.cjs');
const files = require('./files.cjs');

wasm.__setErrorClass(SimHashError);

const api = {};
for (const [name, value] of Object.entries(wasm)) {
  if (!name.startsWith('__') && name !== 'initSync' && name !== 'default') api[name] = value;
}
guard(api, SimHashError);
Object.assign(api, { SimHashError }, files.bind(api));
// RedisContentSeen (redis.cjs): the shared ContentSeen on Redis.
Object.assign(api, require('./redis.cjs').install(wasm));
module.exports = api;
