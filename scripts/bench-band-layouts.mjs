// node scripts/bench-band-layouts.mjs [pages]: the sketch mode's band records in Redis, in
// the layouts decision record 065 compares. Each layout gets a fresh redis-server (AOF on,
// `appendfsync everysec`, and the README's `hash-max-listpack-value 512`, as bench:shared) and `pages` pages (1M by default) of 20 random
// 24-bit band keys, stored by a Lua script that does for each page what CHECK_SKETCH does
// with the bands of a new page: read the 20 buckets, look for the page's band records in
// them (string.find on the record's first bytes, kept at a record boundary), and write the
// page's record into each. It prints, per layout, the bytes a page (INFO memory), the
// script's time a page over the last 10 % of pages (buckets at their final size), the
// Redis commands a page, and the bytes a page the AOF grew by; and ends with a RESULT line.
//
// Layouts (band b, key k of 24 bits, page number p of 4 bytes):
//   hashes   store format 4: hash `B:b:(k >> 14)`, field (k >> 8) & 63, record k & 255 .. p;
//            20 HGET + 20 HSET a page
//   onehash  one hash `B`, field b .. (k >> 8) (3 bytes), record k & 255 .. p;
//            1 HMGET + 1 HSET of 20 fields a page
//   onehash14 one hash `B`, field b .. (k >> 10) (3 bytes), record (k & 1023) as 2 bytes .. p;
//            1 HMGET + 1 HSET a page, a quarter of the fields
//   strings  string `B:b:(k >> 10)`, record (k & 1023) as 2 bytes .. p;
//            1 MGET + 20 APPEND a page
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startServer, usedMemory } from '../tests/js/redis-server.mjs';

const require = createRequire(import.meta.url);
const { createClient } = require('redis');
const PAGES = Number(process.argv[2] || 1_000_000);
const BANDS = 20;
const BATCH = 1000;

// Every script: ARGV[1] holds BATCH pages' band keys (3 bytes each, 20 a page), ARGV[2]
// the first page's number (4 bytes). Between HEAD and LOOP, the layout defines
// `bucket(b, k, pn)` (a band's bucket and the page's record in it) and the commands
// `read(names)` (the buckets' values) and `write(names, values, recs)`.
const HEAD = `
local call, byte, sub, char, find, floor = redis.call, string.byte, string.sub, string.char, string.find, math.floor
local keys, p0 = ARGV[1], ARGV[2]
local first = ((byte(p0, 1) * 256 + byte(p0, 2)) * 256 + byte(p0, 3)) * 256 + byte(p0, 4)
`;
const LOOP = `
local hits = 0
for i = 0, #keys / ${3 * BANDS} - 1 do
  local n = first + i
  local pn = char(floor(n / 16777216) % 256, floor(n / 65536) % 256, floor(n / 256) % 256, n % 256)
  local names, recs = {}, {}
  for b = 1, ${BANDS} do
    local o = i * ${3 * BANDS} + (b - 1) * 3 + 1
    local k = (byte(keys, o) * 256 + byte(keys, o + 1)) * 256 + byte(keys, o + 2)
    names[b], recs[b] = bucket(b, k, pn)
  end
  local values = read(names)
  for b = 1, ${BANDS} do
    local v, lead, size = values[b] or '', sub(recs[b], 1, -5), #recs[b]
    local o = find(v, lead, 1, true)
    while o do
      if o % size == 1 then hits = hits + 1 end
      o = find(v, lead, o + 1, true)
    end
    values[b] = v .. recs[b]
  end
  write(names, values, recs)
end
return hits
`;

// The one-hash layouts' commands: all 20 buckets are fields of the hash `B`.
const ONE_HASH_IO = `
local function read(names) return call('HMGET', 'B', unpack(names)) end
local function write(names, values)
  local args = {}
  for b = 1, #names do args[2 * b - 1], args[2 * b] = names[b], values[b] end
  call('HSET', 'B', unpack(args))
end`;

const LAYOUTS = {
  hashes: `
local function bucket(b, k, pn)
  return {'B:' .. b .. ':' .. floor(k / 16384), char(floor(k / 256) % 64)}, char(k % 256) .. pn
end
local function read(names)
  local v = {}
  for b = 1, #names do v[b] = call('HGET', names[b][1], names[b][2]) end
  return v
end
local function write(names, values)
  for b = 1, #names do call('HSET', names[b][1], names[b][2], values[b]) end
end`,
  onehash: `
local function bucket(b, k, pn)
  return char(b, floor(k / 65536), floor(k / 256) % 256), char(k % 256) .. pn
end
${ONE_HASH_IO}`,
  onehash14: `
local function bucket(b, k, pn)
  local top = floor(k / 1024)
  return char(b, floor(top / 256), top % 256), char(floor(k / 256) % 4, k % 256) .. pn
end
${ONE_HASH_IO}`,
  strings: `
local function bucket(b, k, pn)
  return 'B:' .. b .. ':' .. floor(k / 1024), char(floor(k / 256) % 4, k % 256) .. pn
end
local function read(names) return call('MGET', unpack(names)) end
local function write(names, values, recs)
  for b = 1, #names do call('APPEND', names[b], recs[b]) end
end`,
};
const CALLS = { hashes: 40, onehash: 2, onehash14: 2, strings: 21 };

/** The layout's script. */
function script(layout) {
  if (!LAYOUTS[layout]) throw new Error(`no layout ${JSON.stringify(layout)}; the layouts: ${Object.keys(LAYOUTS).join(', ')}`);
  return HEAD + LAYOUTS[layout] + LOOP;
}

function aofBytes(dir) {
  let total = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/aof/.test(e.name)) total += statSync(p).size;
    }
  };
  walk(dir);
  return total;
}

async function measure(layout) {
  const server = await startServer(['--appendfsync', 'everysec', '--auto-aof-rewrite-percentage', '0', '--hash-max-listpack-value', '512']);
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    const sha = await client.scriptLoad(script(layout));
    const mem0 = usedMemory(server.port);
    const aof0 = aofBytes(server.dir);
    // xorshift32: the same keys for every layout.
    let x = 65;
    const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0);
    // The timed tail: the batches in the last 10 % of pages (at least the last batch).
    const tail = Math.max(0, Math.floor(Math.min(PAGES * 0.9, PAGES - BATCH) / BATCH) * BATCH);
    let tailMs = 0;
    let hits = 0;
    for (let at = 0; at < PAGES; at += BATCH) {
      const n = Math.min(BATCH, PAGES - at);
      const keys = Buffer.alloc(n * BANDS * 3);
      for (let i = 0; i < keys.length; i += 4) keys.writeUInt32BE(next(), i); // 20 keys of 3 bytes: 15 words
      const p0 = Buffer.alloc(4);
      p0.writeUInt32BE(at + 1);
      const t = performance.now();
      hits += Number(await client.evalSha(sha, { arguments: [keys, p0] }));
      if (at >= tail) tailMs += performance.now() - t;
    }
    const mem = usedMemory(server.port) - mem0;
    const aof = aofBytes(server.dir) - aof0;
    return {
      layout,
      bytes: mem / PAGES,
      us: (tailMs * 1000) / (PAGES - tail),
      calls: CALLS[layout],
      aof: aof / PAGES,
      hits: hits / PAGES,
    };
  } finally {
    await client.quit();
    await server.stop();
  }
}

const rows = [];
// SIMHASH_BENCH_LAYOUTS=hashes,onehash: only those.
const chosen = process.env.SIMHASH_BENCH_LAYOUTS ? process.env.SIMHASH_BENCH_LAYOUTS.split(',') : Object.keys(LAYOUTS);
for (const layout of chosen) {
  const r = await measure(layout);
  rows.push(r);
  console.log(
    `${layout.padEnd(10)} ${r.bytes.toFixed(1).padStart(7)} B/page  ${r.us.toFixed(1).padStart(7)} µs/page  ` +
      `${String(r.calls).padStart(2)} calls/page  AOF ${r.aof.toFixed(0).padStart(6)} B/page  ${r.hits.toFixed(2)} band hits/page`,
  );
}
console.log(
  'RESULT pages=' +
    PAGES +
    ' ' +
    rows.map((r) => `${r.layout}_bytes=${r.bytes.toFixed(1)} ${r.layout}_us=${r.us.toFixed(1)} ${r.layout}_aof=${r.aof.toFixed(0)}`).join(' '),
);
