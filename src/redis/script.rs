//! The Lua scripts (Redis 7.0 runs Lua 5.1). They never compute a Hamming distance: Lua's
//! numbers are doubles and its `bit` library works on 32 bits. They compare bytes and small
//! nibbles of single bytes (the pre-filter of [`super::keys`]), append and cut fixed-size
//! records, and return candidate bytes for wasm to measure.
//!
//! `KEYS` are [`super::keys::key_names`]: meta, n, p, c, u, and the prefix `{NS}:t` of
//! the table hashes; a bucket's hash is that prefix followed by its
//! [name](super::keys::TableGeometry::bucket_key). Those hashes are not passed as `KEYS`
//! (a check would need 4 more, a replacement 4 more again); they share the namespace's
//! hash tag, so they live in the script's slot, which is all Redis Cluster asks of keys
//! a script reaches on its own (the cluster tests run it).
//!
//! ## `CHECK`
//!
//! One call checks one page or several (a *batch*: the checks one worker issued together).
//! `ARGV`: 1 meta, 2 the pages' *entries*, one after another. An entry is five fields,
//! each a 4-byte big-endian length and its bytes (one argument a call, however many pages:
//! the client writes and the server parses one string): URL, *query*, *evaluated* (table
//! byte + record, for every candidate wasm has already measured), *matches* (per match
//! within k: fingerprint, distance byte, table byte, record), *replace* (empty, or the
//! URL's old fingerprint then per table its bucket's hash name, field and record, as long
//! as the query's). The
//! *query* is one string: the fingerprint (8 bytes BE), a byte 1 with the URL map else 0,
//! a byte k, a byte T (the number of tables), then per table the lengths of the bucket's
//! hash name, field and record (a byte each), the name, the field and the query's record;
//! the page record takes the rest. The reply holds one reply per page, in order (arrays
//! of bulk strings):
//!
//! - `{"N"}`: no stored page within k; the page was stored (in the same atomic step);
//! - `{"C", blob}`: records that passed the pre-filter and are not in *evaluated*
//!   (table byte + record each); nothing was written; wasm measures them and calls again;
//! - `{"D", url, count, m1, m2, …}`: the nearest live match (distance, then URL) was
//!   counted; per match of *matches* `"1"..url` if it is still stored, else `"0"`;
//! - `{"E", url, count}`: the same fingerprint is stored (byte equality); counted;
//! - `{"M", fp}`: the URL is stored with other content; call again with *replace*;
//! - `{"X", meta}` / `{"G"}`: the namespace's settings differ / the namespace is gone
//!   (every page of the call gets it);
//! - `{"F", what}`: a bucket or page record that this build did not write (foreign data);
//!   nothing was written for this page.
//!
//! The pages of a batch are checked one after another inside the one atomic call, each
//! seeing what the ones before it stored: the batch is linearizable as the same checks
//! made one at a time, in its order. A page that needs another call (`"C"`, `"M"`) is
//! sent again, in a later batch.
//!
//! Because *evaluated* is sent back, a second call decides only if no record that wasm
//! has not measured passes the pre-filter now: nothing stored between the two calls is
//! missed (a content-based version check that never retries needlessly).
//!
//! ## Cost
//!
//! The script is loaded once per server (`EVALSHA`; the JS side falls back to `EVAL` on
//! `NOSCRIPT`, which also loads it). A call builds only its per-table lists (hash, field,
//! record, bucket) in the common case: the query's record bytes and nibbles are locals,
//! each stored record is read with one `string.byte` and dropped at its `k + 1`-th unequal
//! nibble ([`super::keys`]; 0.125 µs a record, measured alone), and a new page costs
//! `1 + T` reads and `T + 1` writes (`T + 5` reads and writes with the URL map). A batch
//! pays the call (reading and parsing the command, the meta `GET`, the reply's write and
//! the client's round trip) once for all its pages.

/// The nibble pre-filter's set-up ([`super::keys`]), where `r` is the query's record of
/// `rl` bytes (at most 8): its bytes `q1..q8`, and their low (`l`) and high (`h`) nibbles.
macro_rules! nibble_setup {
    () => {
        r#"    local q1, q2, q3, q4, q5, q6, q7, q8 = byte(r, 1, rl)
    local l1, l2, l3, l4, l5, l6, l7, l8 = (q1 or 0) % 16, (q2 or 0) % 16, (q3 or 0) % 16, (q4 or 0) % 16, (q5 or 0) % 16, (q6 or 0) % 16, (q7 or 0) % 16, (q8 or 0) % 16
    local h1, h2, h3, h4, h5, h6, h7, h8 = (q1 or 0) - l1, (q2 or 0) - l2, (q3 or 0) - l3, (q4 or 0) - l4, (q5 or 0) - l5, (q6 or 0) - l6, (q7 or 0) - l7, (q8 or 0) - l8
"#
    };
}

/// The nibble pre-filter's test of the stored record at byte `o` of bucket `b`, opening a
/// `repeat … until true` block that `break`s as soon as more than `K` nibbles differ:
/// each unequal byte counts 1 when one of its nibbles is equal, else 2; the code after it
/// in the block runs for a record that passed, with `m` its count.
macro_rules! nibble_test {
    () => {
        r#"      local a1, a2, a3, a4, a5, a6, a7, a8 = byte(b, o, o + rl - 1)
      local m = 0
      repeat
        if a1 ~= q1 then if a1 % 16 == l1 or a1 - a1 % 16 == h1 then m = 1 else m = 2 end if m > K then break end end
        if a2 ~= q2 then if a2 % 16 == l2 or a2 - a2 % 16 == h2 then m = m + 1 else m = m + 2 end if m > K then break end end
        if a3 ~= q3 then if a3 % 16 == l3 or a3 - a3 % 16 == h3 then m = m + 1 else m = m + 2 end if m > K then break end end
        if a4 ~= q4 then if a4 % 16 == l4 or a4 - a4 % 16 == h4 then m = m + 1 else m = m + 2 end if m > K then break end end
        if a5 ~= q5 then if a5 % 16 == l5 or a5 - a5 % 16 == h5 then m = m + 1 else m = m + 2 end if m > K then break end end
        if a6 ~= q6 then if a6 % 16 == l6 or a6 - a6 % 16 == h6 then m = m + 1 else m = m + 2 end if m > K then break end end
        if a7 ~= q7 then if a7 % 16 == l7 or a7 - a7 % 16 == h7 then m = m + 1 else m = m + 2 end if m > K then break end end
        if a8 ~= q8 then if a8 % 16 == l8 or a8 - a8 % 16 == h8 then m = m + 1 else m = m + 2 end if m > K then break end end
"#
    };
}

/// The check script.
pub const CHECK: &str = concat!(
    r#"
local call, byte, sub, char = redis.call, string.byte, string.sub, string.char
local entries, at, fields = ARGV[2], 1, {}
while at <= #entries do
  local a, b, c, d = byte(entries, at, at + 3)
  local n = d and ((a * 256 + b) * 256 + c) * 256 + d
  if not n or at + 3 + n > #entries then return redis.error_reply('simhash-wasm CHECK: an entry is cut short (mixed versions?)') end
  fields[#fields + 1] = sub(entries, at + 4, at + 3 + n)
  at = at + 4 + n
end
if #fields % 5 ~= 0 then return redis.error_reply('simhash-wasm CHECK: an entry has a field missing (mixed versions?)') end
local npages = #fields / 5
local stored = call('GET', KEYS[1])
if stored ~= ARGV[1] then
  local r = stored and {'X', stored} or {'G'}
  local out = {}
  for i = 1, npages do out[i] = r end
  return out
end
local KN, KP, KC, KU, KT = KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local function page_url(rec)
  if not rec then return '' end
  local v = byte(rec, 1)
  if v == 1 then return sub(rec, 2) end
  if v == 2 then return sub(rec, 4 + byte(rec, 3)) end
  return nil
end
local function check(url, q, ev, mb, rep)
local fp, urls, K, nt = sub(q, 1, 8), byte(q, 9) == 1, byte(q, 10), byte(q, 11)
local H, F, R, pos = {}, {}, {}, 12
for t = 1, nt do
  local hl, fl, rl = byte(q, pos, pos + 2)
  pos = pos + 3
  H[t], F[t], R[t] = KT .. sub(q, pos, pos + hl - 1), sub(q, pos + hl, pos + hl + fl - 1), sub(q, pos + hl + fl, pos + hl + fl + rl - 1)
  pos = pos + hl + fl + rl
end
local seen = nil
if #ev > 0 then
  seen = {}
  local i = 1
  while i <= #ev do
    local rl = #R[byte(ev, i) + 1]
    seen[sub(ev, i, i + rl)] = true
    i = i + 1 + rl
  end
end
local buckets = {}
for t = 1, nt do buckets[t] = call('HGET', H[t], F[t]) end
local alive, fresh, npass, allexact = {}, {}, 0, true
for t = 1, nt do
  local r, b = R[t], buckets[t]
  local rl = #r
  if b then
    if #b % rl ~= 0 then return {'F', 'a bucket of ' .. H[t] .. ' has a length that is not a multiple of its record size'} end
"#,
    nibble_setup!(),
    r#"    for o = 1, #b, rl do
"#,
    nibble_test!(),
    r#"        local rec = sub(b, o, o + rl - 1)
        local key = char(t - 1) .. rec
        alive[key] = true
        npass = npass + 1
        if rec ~= r then allexact = false end
        if not (seen and seen[key]) then fresh[#fresh + 1] = key end
      until true
    end
  else
    buckets[t] = ''
  end
end
local function count_under(bestfp, best)
  if not urls then return '0' end
  local n = call('HINCRBY', KC, bestfp, 1)
  if n == 1 then n = 2; call('HSET', KC, bestfp, 2) end
  if best ~= url then
    local cur = call('HGET', KU, url)
    if not cur or byte(cur, 1) ~= 1 then call('HSET', KU, url, '\2' .. best) end
  end
  return tostring(n)
end
if npass > 0 and allexact then
  local best = ''
  if urls then
    best = page_url(call('HGET', KP, fp))
    if not best then return {'F', 'a page record of ' .. KP .. ' has an unknown version'} end
  end
  return {'E', best, count_under(fp, best)}
end
if #fresh > 0 then return {'C', table.concat(fresh)} end
if #mb > 0 then
  local best, bestd, bestfp, out, j = nil, 999, nil, {}, 1
  while j <= #mb do
    local mfp, d = sub(mb, j, j + 7), byte(mb, j + 8)
    local rl = #R[byte(mb, j + 9) + 1]
    local key = sub(mb, j + 9, j + 9 + rl)
    j = j + 10 + rl
    if alive[key] then
      local murl = ''
      if urls then
        murl = page_url(call('HGET', KP, mfp))
        if not murl then return {'F', 'a page record of ' .. KP .. ' has an unknown version'} end
      end
      out[#out + 1] = '1' .. murl
      if d < bestd or (d == bestd and murl < best) then best, bestd, bestfp = murl, d, mfp end
    else
      out[#out + 1] = '0'
    end
  end
  if bestfp then
    local res = {'D', best, count_under(bestfp, best)}
    for _, v in ipairs(out) do res[#res + 1] = v end
    return res
  end
end
if urls then
  local cur = call('HGET', KU, url)
  if cur and byte(cur, 1) == 1 then
    local old = sub(cur, 2)
    if sub(rep, 1, 8) ~= old then return {'M', old} end
    local j = 9
    for t = 1, nt do
      local hl, fl, rl = #H[t] - #KT, #F[t], #R[t]
      local h, f, r = KT .. sub(rep, j, j + hl - 1), sub(rep, j + hl, j + hl + fl - 1), sub(rep, j + hl + fl, j + hl + fl + rl - 1)
      j = j + hl + fl + rl
      local b = call('HGET', h, f) or ''
      for o = 0, #b - rl, rl do
        if sub(b, o + 1, o + rl) == r then b = sub(b, 1, o) .. sub(b, o + rl + 1); break end
      end
      if #b == 0 then call('HDEL', h, f) else call('HSET', h, f, b) end
      if h == H[t] and f == F[t] then buckets[t] = b end
    end
    call('HDEL', KP, old)
    call('HDEL', KC, old)
    call('DECR', KN)
  end
end
for t = 1, nt do call('HSET', H[t], F[t], buckets[t] .. R[t]) end
call('INCR', KN)
if urls then
  call('HSET', KP, fp, sub(q, pos))
  call('HSET', KU, url, '\1' .. fp)
end
return {'N'}
end
local out = {}
for i = 0, npages - 1 do
  local f = 5 * i
  out[i + 1] = check(fields[f + 1], fields[f + 2], fields[f + 3], fields[f + 4], fields[f + 5])
end
return out
"#
);

/// Opens a namespace: `ARGV[1]` = our meta. Replies `{"S", stored meta}` when the
/// namespace exists (wasm compares), `{"C"}` when it was created just now, or
/// `{"F", key, type}` when a key of the namespace holds data of a foreign type, or data
/// exists without a meta (foreign keys, or a namespace whose meta was deleted). `ARGV[2]`
/// holds one byte per table, the bits of its hashes' names: when there is no meta, every
/// table hash the namespace may use is tested with `EXISTS` (8,192 names for the default
/// layout, once per new namespace), so a namespace deleted but for some of its table
/// hashes is never reused with stale buckets. A key named `{NS}:t` itself would be store
/// format 1's table hash (the namespace's data without a meta). In sketch mode `ARGV[3]`
/// holds one byte, the number of bands, and every band hash (`{NS}:bB:HHHH`, 16,384 a band)
/// is tested the same way (327,680 names with the default sketch).
pub const OPEN: &str = r#"
local want = {string = {[1] = true, [2] = true}, hash = {}}
for i = 3, #KEYS do want.hash[i] = true end
local any = false
for i = 1, #KEYS do
  local ty = redis.call('TYPE', KEYS[i]).ok
  if ty ~= 'none' then
    any = true
    if not (want[ty] and want[ty][i]) then return {'F', KEYS[i], ty} end
  end
end
local stored = redis.call('GET', KEYS[1])
if stored then return {'S', stored} end
if any then
  for i = 2, #KEYS do
    if redis.call('EXISTS', KEYS[i]) == 1 then return {'F', KEYS[i], 'data without a meta key'} end
  end
end
local nb = ARGV[2]
for t = 1, #nb do
  local h = string.byte(nb, t)
  local d, last, batch = math.ceil(h / 4), 2 ^ h - 1, {}
  for i = 0, last do
    batch[#batch + 1] = d == 0 and (KEYS[6] .. (t - 1)) or string.format('%s%d:%0' .. d .. 'x', KEYS[6], t - 1, i)
    if #batch == 1000 or i == last then
      if redis.call('EXISTS', unpack(batch)) > 0 then
        for _, k in ipairs(batch) do
          if redis.call('EXISTS', k) == 1 then return {'F', k, 'data without a meta key'} end
        end
      end
      batch = {}
    end
  end
end
-- Sketch mode: every band hash too (KEYS[8] is the band prefix; 2^14 names a band).
local nbands = ARGV[3] and string.byte(ARGV[3]) or 0
for b = 0, nbands - 1 do
  local batch = {}
  for i = 0, 16383 do
    batch[#batch + 1] = string.format('%s%d:%04x', KEYS[8], b, i)
    if #batch == 1000 or i == 16383 then
      if redis.call('EXISTS', unpack(batch)) > 0 then
        for _, k in ipairs(batch) do
          if redis.call('EXISTS', k) == 1 then return {'F', k, 'data without a meta key'} end
        end
      end
      batch = {}
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1])
return {'C'}
"#;

/// Looks a URL up: `ARGV[1]` = meta, `ARGV[2]` = URL. Replies `{}` for an unknown URL
/// (or without the URL map), else `{"U", cluster url, count, fingerprint}` (in both
/// modes: a sketch-mode page's fingerprint is read from its page value); `{"X", meta}` /
/// `{"G"}` as [`CHECK`].
pub const LOOKUP: &str = r#"
local stored = redis.call('GET', KEYS[1])
if not stored then return {'G'} end
if stored ~= ARGV[1] then return {'X', stored} end
local cur = redis.call('HGET', KEYS[5], ARGV[2])
if not cur then return {} end
local cluster = ARGV[2]
if string.byte(cur, 1) == 2 then
  cluster = string.sub(cur, 2)
  cur = redis.call('HGET', KEYS[5], cluster)
  if not cur or string.byte(cur, 1) == 2 then return {} end
end
local fp = string.sub(cur, 2)
local n = redis.call('HGET', KEYS[4], fp) or '1'
-- Sketch mode: a page number; its value starts with the fingerprint.
if string.byte(cur, 1) == 3 then fp = string.sub(redis.call('HGET', KEYS[3], fp) or '', 1, 8) end
return {'U', cluster, n, fp}
"#;

/// The two import scripts' first part: the namespace's settings must be the batch's, and
/// the first batch needs an empty namespace; then `add(h, f, r)` gathers record `r` for
/// field `f` of hash `h`, so that each field is read and written once a batch.
macro_rules! import_prelude {
    () => {
        r#"
local stored = redis.call('GET', KEYS[1])
if not stored then return {'G'} end
if stored ~= ARGV[1] then return {'X', stored} end
if ARGV[2] == 'first' and tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then
  return redis.error_reply('simhash-wasm: import needs an empty namespace')
end
local acc, order, pages = {}, {}, 0
local function add(h, f, r)
  local byf = acc[h]
  if not byf then order[#order + 1] = h; byf = {fields = {}}; acc[h] = byf end
  if not byf[f] then byf.fields[#byf.fields + 1] = f; byf[f] = {} end
  local a = byf[f]
  a[#a + 1] = r
end
"#
    };
}

/// The import scripts' last part: the gathered records appended to their fields (one
/// `HMGET` and one `HSET` a hash), and the page count raised.
macro_rules! import_flush {
    () => {
        r#"for _, h in ipairs(order) do
  local byf = acc[h]
  local fs = byf.fields
  local old = redis.call('HMGET', h, unpack(fs))
  local set = {}
  for x, f in ipairs(fs) do
    set[#set + 1] = f
    set[#set + 1] = (old[x] or '') .. table.concat(byf[f])
  end
  redis.call('HSET', h, unpack(set))
end
if pages > 0 then redis.call('INCRBY', KEYS[2], pages) end
"#
    };
}

/// Imports pages into an empty namespace (migration from a `ContentSeen` snapshot).
/// `ARGV`: 1 meta, 2 `"first"` on the first batch (refused unless the namespace is empty)
/// else `""`, 3 the number of tables, then groups: `"P"`, fingerprint, page record, count,
/// URL, then per table the bucket's hash name, field and record; or `"A"`, URL, cluster
/// URL. Replies `{"OK"}`.
pub const IMPORT: &str = concat!(
    import_prelude!(),
    r#"
local nt, i = tonumber(ARGV[3]), 4
while i <= #ARGV do
  if ARGV[i] == 'P' then
    local fp, rec, n, url = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
    i = i + 5
    for t = 1, nt do
      add(KEYS[6] .. ARGV[i], ARGV[i + 1], ARGV[i + 2])
      i = i + 3
    end
    pages = pages + 1
    if url ~= '' then
      redis.call('HSET', KEYS[3], fp, rec)
      if n ~= '1' then redis.call('HSET', KEYS[4], fp, n) end
      redis.call('HSET', KEYS[5], url, '\1' .. fp)
    end
  else
    redis.call('HSET', KEYS[5], ARGV[i + 1], '\2' .. ARGV[i + 2])
    i = i + 3
  end
end
"#,
    import_flush!(),
    "return {'OK'}\n"
);

/// The sketch-mode check ([`super::sketch`]; `KEYS` are [`super::keys::key_names`] then
/// [`super::keys::sketch_key_names`]: meta, n, p, c, u, the table prefix `{NS}:t`, the
/// page-number counter `{NS}:i`, the band prefix `{NS}:b`). Table records are the
/// fingerprint's record followed by the page's 4-byte number; `{NS}:p` maps page numbers
/// to page values ([`super::record`]).
///
/// `ARGV`: 1 meta, 2 URL, 3 *query*, 4 *evaluated* (the 4-byte page numbers wasm has
/// measured), 5 *ranked* (the page numbers wasm found to be duplicates, best first),
/// 6 *replace* (empty, or the URL's old page number, then per table the lengths of its
/// bucket's hash name, field and record (a byte each), the name, the field and the
/// record with the page number, then a band count byte and per band the lengths of the
/// band bucket's hash name and field, the name and the field). The *query*: the
/// fingerprint (8 bytes BE), a byte k, a byte T, per table as in [`CHECK`] (lengths, hash
/// name, field, the query's record without a page number), a byte B (bands, 0 without a
/// sketch), per band the lengths of the bucket's hash name and field (a byte each), the
/// name and the field, the filter's bounds ([`super::sketch::Bounds`]: `zlim` 2 bytes,
/// `c16` 4, `emin` 2, big-endian), and the page record (its sketch is the query's) to the
/// end. Replies (arrays of bulk strings):
///
/// - `{"N"}`: no stored page is a duplicate; the page was stored (same atomic step);
/// - `{"C", n1, v1, n2, v2, …}`: pages not in *evaluated* (page number, page value): table
///   records passing the nibble pre-filter, and band references passing the sketch filter;
///   nothing was written; wasm measures them and calls again;
/// - `{"D", url, count, m1, m2, …}`: the first page of *ranked* still stored was counted
///   (its URL and new count); per page of *ranked* `"1"..url` if still stored, else `"0"`;
/// - `{"M", n, v}`: the URL is stored as page `n` (value `v`) and this page is not its
///   duplicate: call again with *replace*;
/// - `{"X", meta}` / `{"G"}`: as [`CHECK`].
///
/// No distance-0 shortcut: equal fingerprints are confirmed by the estimate too.
pub const CHECK_SKETCH: &str = concat!(
    r#"
local call, byte, sub, char, bxor, floor = redis.call, string.byte, string.sub, string.char, bit.bxor, math.floor
local stored = call('GET', KEYS[1])
if stored ~= ARGV[1] then
  if not stored then return {'G'} end
  return {'X', stored}
end
local KN, KP, KC, KU, KT, KI, KB = KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local url, q = ARGV[2], ARGV[3]
local fp, K, nt = sub(q, 1, 8), byte(q, 9), byte(q, 10)
local H, F, R, pos = {}, {}, {}, 11
for t = 1, nt do
  local hl, fl, rl = byte(q, pos, pos + 2)
  pos = pos + 3
  H[t], F[t], R[t] = KT .. sub(q, pos, pos + hl - 1), sub(q, pos + hl, pos + hl + fl - 1), sub(q, pos + hl + fl, pos + hl + fl + rl - 1)
  pos = pos + hl + fl + rl
end
local nb = byte(q, pos)
pos = pos + 1
local BH, BF = {}, {}
for b = 1, nb do
  local hl, fl = byte(q, pos, pos + 1)
  pos = pos + 2
  BH[b], BF[b] = KB .. sub(q, pos, pos + hl - 1), sub(q, pos + hl, pos + hl + fl - 1)
  pos = pos + hl + fl
end
local zlim = byte(q, pos) * 256 + byte(q, pos + 1)
local c16 = ((byte(q, pos + 2) * 256 + byte(q, pos + 3)) * 256 + byte(q, pos + 4)) * 256 + byte(q, pos + 5)
local emin = byte(q, pos + 6) * 256 + byte(q, pos + 7)
local rec = sub(q, pos + 8)
local ev, seen, fresh, out = ARGV[4], {}, {}, {'C'}
for i = 1, #ev, 4 do seen[sub(ev, i, i + 3)] = true end
local function page_url(v)
  local ver = byte(v, 9)
  if ver == 1 then return sub(v, 10) end
  if ver == 2 then return sub(v, 12 + byte(v, 11)) end
  return redis.error_reply('simhash-wasm: unknown page record version')
end
local buckets = {}
for t = 1, nt do
  local r, b = R[t], call('HGET', H[t], F[t])
  local rl = #r
  local st = rl + 4
  if b then
    if #b % st ~= 0 then return redis.error_reply('simhash-wasm: a bucket of ' .. H[t] .. ' has a length that is not a multiple of its record size; the namespace holds foreign data') end
"#,
    nibble_setup!(),
    r#"    for o = 1, #b, st do
"#,
    nibble_test!(),
    r#"        local pn = sub(b, o + rl, o + rl + 3)
        if not seen[pn] and not fresh[pn] then
          fresh[pn] = true
          local v = call('HGET', KP, pn)
          if v then out[#out + 1] = pn; out[#out + 1] = v end
        end
      until true
    end
  else
    b = ''
  end
  buckets[t] = b
end
local bb = {}
if nb > 0 then
  -- The query's sketch (page record version 2: its length at byte 3, then its bytes,
  -- read on the first band reference to filter): n, then the odd and MinHash parts.
  local POP = '\0\1\1\2\1\2\2\3\1\2\2\3\2\3\3\4\1\2\2\3\2\3\3\4\2\3\3\4\3\4\4\5\1\2\2\3\2\3\3\4\2\3\3\4\3\4\4\5\2\3\3\4\3\4\4\5\3\4\4\5\4\5\5\6\1\2\2\3\2\3\3\4\2\3\3\4\3\4\4\5\2\3\3\4\3\4\4\5\3\4\4\5\4\5\5\6\2\3\3\4\3\4\4\5\3\4\4\5\4\5\5\6\3\4\4\5\4\5\5\6\4\5\5\6\5\6\6\7\1\2\2\3\2\3\3\4\2\3\3\4\3\4\4\5\2\3\3\4\3\4\4\5\3\4\4\5\4\5\5\6\2\3\3\4\3\4\4\5\3\4\4\5\4\5\5\6\3\4\4\5\4\5\5\6\4\5\5\6\5\6\6\7\2\3\3\4\3\4\4\5\3\4\4\5\4\5\5\6\3\4\4\5\4\5\5\6\4\5\5\6\5\6\6\7\3\4\4\5\4\5\5\6\4\5\5\6\5\6\6\7\4\5\5\6\5\6\6\7\5\6\6\7\6\7\7\8'
  local L = byte(rec, 3)
  local half, QS, qn = L / 2, nil, 0
  local function passes(v)
    if byte(v, 9) ~= 2 then return false end
    if byte(v, 11) ~= L then return true end
    if not QS then
      QS = {byte(rec, 4, 3 + L)}
      qn = QS[1] + QS[2] * 256 + QS[3] * 65536 + QS[4] * 16777216
    end
    local s = 11
    local n = byte(v, s + 1) + byte(v, s + 2) * 256 + byte(v, s + 3) * 65536 + byte(v, s + 4) * 16777216
    local z = 0
    for i = 5, half do z = z + byte(POP, bxor(byte(v, s + i), QS[i]) + 1) end
    if z < zlim and z * 65536 <= (qn + n) * c16 + 65536 then return true end
    local e = 0
    for i = half + 1, L do
      local a, c = byte(v, s + i), QS[i]
      if a == c then e = e + 2
      elseif a % 16 == c % 16 or a - a % 16 == c - c % 16 then e = e + 1 end
    end
    return e >= emin
  end
  for b = 1, nb do
    local v = call('HGET', BH[b], BF[b]) or ''
    if #v % 4 ~= 0 then return redis.error_reply('simhash-wasm: a bucket of ' .. BH[b] .. ' has a length that is not a multiple of 4; the namespace holds foreign data') end
    bb[b] = v
    for o = 1, #v, 4 do
      local pn = sub(v, o, o + 3)
      if not seen[pn] and not fresh[pn] then
        fresh[pn] = true
        local pv = call('HGET', KP, pn)
        if pv and passes(pv) then out[#out + 1] = pn; out[#out + 1] = pv end
      end
    end
  end
end
if #out > 1 then return out end
local mb = ARGV[5]
if #mb > 0 then
  local best, bestpn, res = nil, nil, {'D', '', ''}
  for j = 1, #mb, 4 do
    local pn = sub(mb, j, j + 3)
    local v = call('HGET', KP, pn)
    if v then
      local murl = page_url(v)
      res[#res + 1] = '1' .. murl
      if not bestpn then best, bestpn = murl, pn end
    else
      res[#res + 1] = '0'
    end
  end
  if bestpn then
    local n = call('HINCRBY', KC, bestpn, 1)
    if n == 1 then n = 2; call('HSET', KC, bestpn, 2) end
    if best ~= url then
      local cur = call('HGET', KU, url)
      if not cur or byte(cur, 1) ~= 3 then call('HSET', KU, url, '\2' .. best) end
    end
    res[2], res[3] = best, tostring(n)
    return res
  end
end
local cur = call('HGET', KU, url)
if cur and byte(cur, 1) == 3 then
  local old, rep = sub(cur, 2, 5), ARGV[6]
  if sub(rep, 1, 4) ~= old then return {'M', old, call('HGET', KP, old) or ''} end
  local j = 5
  for t = 1, nt do
    local hl, fl, rl = byte(rep, j, j + 2)
    j = j + 3
    local h, f, r = KT .. sub(rep, j, j + hl - 1), sub(rep, j + hl, j + hl + fl - 1), sub(rep, j + hl + fl, j + hl + fl + rl - 1)
    j = j + hl + fl + rl
    local b = call('HGET', h, f) or ''
    for o = 0, #b - rl, rl do
      if sub(b, o + 1, o + rl) == r then b = sub(b, 1, o) .. sub(b, o + rl + 1); break end
    end
    if #b == 0 then call('HDEL', h, f) else call('HSET', h, f, b) end
    if h == H[t] and f == F[t] then buckets[t] = b end
  end
  local onb = byte(rep, j)
  j = j + 1
  for x = 1, onb do
    local hl, fl = byte(rep, j, j + 1)
    j = j + 2
    local h, f = KB .. sub(rep, j, j + hl - 1), sub(rep, j + hl, j + hl + fl - 1)
    j = j + hl + fl
    local b = call('HGET', h, f) or ''
    for o = 0, #b - 4, 4 do
      if sub(b, o + 1, o + 4) == old then b = sub(b, 1, o) .. sub(b, o + 5); break end
    end
    if #b == 0 then call('HDEL', h, f) else call('HSET', h, f, b) end
    for y = 1, nb do
      if BH[y] == h and BF[y] == f then bb[y] = b end
    end
  end
  call('HDEL', KP, old)
  call('HDEL', KC, old)
  call('DECR', KN)
end
local id = call('HINCRBY', KI, 'n', 1)
if id > 4294967295 then return redis.error_reply('simhash-wasm: the namespace has given out all 2^32 page numbers') end
local pn = char(floor(id / 16777216) % 256, floor(id / 65536) % 256, floor(id / 256) % 256, id % 256)
for t = 1, nt do call('HSET', H[t], F[t], buckets[t] .. R[t] .. pn) end
for b = 1, nb do call('HSET', BH[b], BF[b], bb[b] .. pn) end
call('INCR', KN)
call('HSET', KP, pn, fp .. rec)
call('HSET', KU, url, '\3' .. pn)
return {'N'}
"#
);

/// Imports pages into an empty sketch-mode namespace (migration from a `ContentSeen`
/// snapshot; `KEYS` as [`CHECK_SKETCH`]). `ARGV`: 1 meta, 2 `"first"` on the first batch
/// (refused unless the namespace is empty) else `""`, 3 the number of tables, 4 the last
/// page number given out before this batch (the batch is refused if another writer took
/// one meanwhile), 5 the last page number of this batch, then groups: `"P"`, page number,
/// page value, count, URL, then per table the bucket's hash name, field and record (with
/// the page number), then the number of bands, then per band the bucket's hash name and
/// field; or `"A"`, URL, cluster URL. Replies `{"OK"}`.
pub const IMPORT_SKETCH: &str = concat!(
    import_prelude!(),
    r#"
if tonumber(redis.call('HGET', KEYS[7], 'n') or '0') ~= tonumber(ARGV[4]) then
  return redis.error_reply('simhash-wasm: import needs the namespace to itself (another worker stored pages meanwhile)')
end
local nt, i = tonumber(ARGV[3]), 6
while i <= #ARGV do
  if ARGV[i] == 'P' then
    local pn, v, n, url = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
    i = i + 5
    for t = 1, nt do
      add(KEYS[6] .. ARGV[i], ARGV[i + 1], ARGV[i + 2])
      i = i + 3
    end
    local nb = tonumber(ARGV[i])
    i = i + 1
    for b = 1, nb do
      add(KEYS[8] .. ARGV[i], ARGV[i + 1], pn)
      i = i + 2
    end
    pages = pages + 1
    redis.call('HSET', KEYS[3], pn, v)
    if n ~= '1' then redis.call('HSET', KEYS[4], pn, n) end
    redis.call('HSET', KEYS[5], url, '\3' .. pn)
  else
    redis.call('HSET', KEYS[5], ARGV[i + 1], '\2' .. ARGV[i + 2])
    i = i + 3
  end
end
"#,
    import_flush!(),
    r#"redis.call('HSET', KEYS[7], 'n', ARGV[5])
return {'OK'}
"#
);
