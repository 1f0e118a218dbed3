// node scripts/bench-hash-split-wasm.mjs [BUILD_DIR] [FILE.jsonl]
// The wasm half of `cargo bench --bench hash_split`: what a pool worker runs on a batch
// (`__fingerprintAndSketchEach`, 2,000 texts a call, with the JS-to-wasm string copies),
// and `__fingerprintEach` and `__sketchEach` alone, on a `bench:dedup` collection, in CPU
// time a document.
// BUILD_DIR: a Node build of the package (default pkg/node); FILE: default
// target/bench-dedup/docs-20000.v2.jsonl (`npm run bench:dedup -- --quick` writes it).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
const require = createRequire(import.meta.url);
const dir = resolve(process.argv[2] ?? 'pkg/node');
const file = process.argv[3] ?? 'target/bench-dedup/docs-20000.v2.jsonl';
const m = require(`${dir}/simhash_wasm.js`);
const texts = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).text);
const h = new m.SimHasher({});
// CPU time of this thread (user + system), the best of three rounds: on a shared machine
// wall-clock time also counts the time other processes had the core.
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const time = (f) => { let best = Infinity; for (let r = 0; r < 3; r++) { const t = cpu(); f(); best = Math.min(best, (cpu() - t) * 1000 / texts.length); } return best; };
const BATCH = 2000;
const both = time(() => { for (let i = 0; i < texts.length; i += BATCH) h.__fingerprintAndSketchEach(texts.slice(i, i + BATCH), i, {}); });
const fp = time(() => { for (let i = 0; i < texts.length; i += BATCH) h.__fingerprintEach(texts.slice(i, i + BATCH), i); });
// The sketch alone, with the fingerprint's failures: the first pass of `dedup --verify sketch`.
const sk = time(() => { for (let i = 0; i < texts.length; i += BATCH) h.__sketchEach(texts.slice(i, i + BATCH), i, {}); });
console.log(`RESULT wasm_both_us=${both.toFixed(2)} wasm_fingerprint_us=${fp.toFixed(2)} wasm_sketch_us=${sk.toFixed(2)} docs=${texts.length}`);
