'use strict';
// Node entry (CommonJS): the --target nodejs build, which loads its .wasm synchronously.
module.exports = require('./node/simhash_wasm.js');
