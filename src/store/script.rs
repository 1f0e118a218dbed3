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

/// The check script.
pub const CHECK: &str = r#"
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
    local q1, q2, q3, q4, q5, q6, q7, q8 = byte(r, 1, rl)
    local l1, l2, l3, l4, l5, l6, l7, l8 = (q1 or 0) % 16, (q2 or 0) % 16, (q3 or 0) % 16, (q4 or 0) % 16, (q5 or 0) % 16, (q6 or 0) % 16, (q7 or 0) % 16, (q8 or 0) % 16
    local h1, h2, h3, h4, h5, h6, h7, h8 = (q1 or 0) - l1, (q2 or 0) - l2, (q3 or 0) - l3, (q4 or 0) - l4, (q5 or 0) - l5, (q6 or 0) - l6, (q7 or 0) - l7, (q8 or 0) - l8
    for o = 1, #b, rl do
      local a1, a2, a3, a4, a5, a6, a7, a8 = byte(b, o, o + rl - 1)
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
        local rec = sub(b, o, o + rl - 1)
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
"#;

/// Opens a namespace: `ARGV[1]` = our meta. Replies `{"S", stored meta}` when the
/// namespace exists (wasm compares), `{"C"}` when it was created just now, or
/// `{"F", key, type}` when a key of the namespace holds data of a foreign type, or data
/// exists without a meta (foreign keys, or a namespace whose meta was deleted). `ARGV[2]`
/// holds one byte per table, the bits of its hashes' names: when there is no meta, every
/// table hash the namespace may use is tested with `EXISTS` (8,192 names for the default
/// layout, once per new namespace), so a namespace deleted but for some of its table
/// hashes is never reused with stale buckets. A key named `{NS}:t` itself would be store
/// format 1's table hash (the namespace's data without a meta).
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
redis.call('SET', KEYS[1], ARGV[1])
return {'C'}
"#;

/// Looks a URL up: `ARGV[1]` = meta, `ARGV[2]` = URL. Replies `{}` for an unknown URL
/// (or without the URL map), else `{cluster url, count, fingerprint}`; `{"X", meta}` /
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
  if not cur or string.byte(cur, 1) ~= 1 then return {} end
end
local fp = string.sub(cur, 2)
return {'U', cluster, redis.call('HGET', KEYS[4], fp) or '1', fp}
"#;

/// Imports pages into an empty namespace (migration from a `ContentSeen` snapshot).
/// `ARGV`: 1 meta, 2 `"first"` on the first batch (refused unless the namespace is empty)
/// else `""`, 3 the number of tables, then groups: `"P"`, fingerprint, page record, count,
/// URL, then per table the bucket's hash name, field and record; or `"A"`, URL, cluster
/// URL. Replies `{"OK"}`.
pub const IMPORT: &str = r#"
local stored = redis.call('GET', KEYS[1])
if not stored then return {'G'} end
if stored ~= ARGV[1] then return {'X', stored} end
if ARGV[2] == 'first' and tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then
  return redis.error_reply('simhash-wasm: import needs an empty namespace')
end
local nt, i, acc, order, pages = tonumber(ARGV[3]), 4, {}, {}, 0
while i <= #ARGV do
  if ARGV[i] == 'P' then
    local fp, rec, n, url = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
    i = i + 5
    for t = 1, nt do
      local h, f, r = KEYS[6] .. ARGV[i], ARGV[i + 1], ARGV[i + 2]
      i = i + 3
      local byf = acc[h]
      if not byf then order[#order + 1] = h; byf = {fields = {}}; acc[h] = byf end
      if not byf[f] then byf.fields[#byf.fields + 1] = f; byf[f] = {} end
      local a = byf[f]
      a[#a + 1] = r
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
for _, h in ipairs(order) do
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
return {'OK'}
"#;
