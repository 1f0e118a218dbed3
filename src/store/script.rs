//! The Lua scripts (Redis 7.0 runs Lua 5.1). They never compute a Hamming distance: Lua's
//! numbers are doubles and its `bit` library works on 32 bits. They compare bytes and small
//! bit-fields of single bytes (the pre-filter of [`super::keys`]), append and cut fixed-size
//! records, and return candidate bytes for wasm to measure.
//!
//! `KEYS` are [`super::keys::key_names`]: meta, n, p, c, u, then the tables.
//!
//! ## `CHECK`
//!
//! `ARGV`: 1 `"c"`, 2 meta, 3 fingerprint (8 bytes BE), 4 URL, 5 `"1"` with the URL map
//! else `"0"`, 6 *evaluated* (table byte + record, for every candidate wasm has already
//! measured), 7 *matches* (per match within k: fingerprint, distance byte, table byte,
//! record), 8 *replace* (empty, or the URL's old fingerprint then per table its field and
//! record), 9 the page record, 10 the number of tables, then per table: field, record,
//! pre-filter program. Replies (arrays of bulk strings):
//!
//! - `{"N"}`: no stored page within k; the page was stored (in the same atomic step);
//! - `{"C", blob}`: records that passed the pre-filter and are not in *evaluated*
//!   (table byte + record each); nothing was written; wasm measures them and calls again;
//! - `{"D", url, count, m1, m2, …}`: the nearest live match (distance, then URL) was
//!   counted; per match of ARGV 7 `"1"..url` if it is still stored, else `"0"`;
//! - `{"E", url, count}`: the same fingerprint is stored (byte equality); counted;
//! - `{"M", fp}`: the URL is stored with other content; call again with *replace*;
//! - `{"X", meta}` / `{"G"}`: the namespace's settings differ / the namespace is gone.
//!
//! Because *evaluated* is sent back, a second call decides only if no record that wasm
//! has not measured passes the pre-filter now: nothing stored between the two calls is
//! missed (a content-based version check that never retries needlessly).

/// The check script.
pub const CHECK: &str = r#"
local KM, KN, KP, KC, KU = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local stored = redis.call('GET', KM)
if not stored then return {'G'} end
if stored ~= ARGV[2] then return {'X', stored} end
local fp, url, urls = ARGV[3], ARGV[4], ARGV[5] == '1'
local nt = tonumber(ARGV[10])
local P2 = {}
for i = 0, 8 do P2[i] = 2 ^ i end
local F, R, RL, PROG = {}, {}, {}, {}
for t = 1, nt do
  F[t] = ARGV[8 + 3 * t]; R[t] = ARGV[9 + 3 * t]; RL[t] = #R[t]
  local s, prog, i = ARGV[10 + 3 * t], {}, 1
  while i <= #s do
    local n, piece = string.byte(s, i), {}
    for j = 0, n - 1 do
      local idx, lo, w, want = string.byte(s, i + 1 + 4 * j, i + 4 + 4 * j)
      piece[j + 1] = {idx, P2[lo], P2[w], want}
    end
    prog[#prog + 1] = piece
    i = i + 1 + 4 * n
  end
  PROG[t] = prog
end
local seen, ev, i = {}, ARGV[6], 1
while i <= #ev do
  local rl = RL[string.byte(ev, i) + 1]
  seen[string.sub(ev, i, i + rl)] = true
  i = i + 1 + rl
end
local buckets, alive, fresh, npass, allexact = {}, {}, {}, 0, true
for t = 1, nt do
  local b = redis.call('HGET', KEYS[5 + t], F[t]) or ''
  local rl, prog = RL[t], PROG[t]
  if #b % rl ~= 0 then return redis.error_reply('simhash-wasm: bucket of ' .. KEYS[5 + t] .. ' has a length that is not a multiple of its record size; the namespace holds foreign data') end
  buckets[t] = b
  for o = 0, #b - rl, rl do
    for _, piece in ipairs(prog) do
      local ok = true
      for _, p in ipairs(piece) do
        if math.floor(string.byte(b, o + p[1]) / p[2]) % p[3] ~= p[4] then ok = false; break end
      end
      if ok then
        local rec = string.sub(b, o + 1, o + rl)
        local key = string.char(t - 1) .. rec
        alive[key] = true
        npass = npass + 1
        if rec ~= R[t] then allexact = false end
        if not seen[key] then fresh[#fresh + 1] = key end
        break
      end
    end
  end
end
local function page_url(rec)
  if not rec then return '' end
  local v = string.byte(rec, 1)
  if v == 1 then return string.sub(rec, 2) end
  if v == 2 then return string.sub(rec, 4 + string.byte(rec, 3)) end
  return redis.error_reply('simhash-wasm: unknown page record version')
end
local function count_under(bestfp, best)
  if not urls then return '0' end
  local n = redis.call('HINCRBY', KC, bestfp, 1)
  if best ~= url then
    local cur = redis.call('HGET', KU, url)
    if not cur or string.byte(cur, 1) ~= 1 then redis.call('HSET', KU, url, '\2' .. best) end
  end
  return tostring(n)
end
if npass > 0 and allexact then
  local best = urls and page_url(redis.call('HGET', KP, fp)) or ''
  return {'E', best, count_under(fp, best)}
end
if #fresh > 0 then return {'C', table.concat(fresh)} end
local mb = ARGV[7]
if #mb > 0 then
  local best, bestd, bestfp, out, j = nil, 999, nil, {}, 1
  while j <= #mb do
    local mfp, d = string.sub(mb, j, j + 7), string.byte(mb, j + 8)
    local rl = RL[string.byte(mb, j + 9) + 1]
    local key = string.sub(mb, j + 9, j + 9 + rl)
    j = j + 10 + rl
    if alive[key] then
      local murl = urls and page_url(redis.call('HGET', KP, mfp)) or ''
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
  local cur = redis.call('HGET', KU, url)
  if cur and string.byte(cur, 1) == 1 then
    local old, rep = string.sub(cur, 2), ARGV[8]
    if string.sub(rep, 1, 8) ~= old then return {'M', old} end
    local j = 9
    for t = 1, nt do
      local fl, rl = #F[t], RL[t]
      local f, r = string.sub(rep, j, j + fl - 1), string.sub(rep, j + fl, j + fl + rl - 1)
      j = j + fl + rl
      local b = redis.call('HGET', KEYS[5 + t], f) or ''
      for o = 0, #b - rl, rl do
        if string.sub(b, o + 1, o + rl) == r then b = string.sub(b, 1, o) .. string.sub(b, o + rl + 1); break end
      end
      if #b == 0 then redis.call('HDEL', KEYS[5 + t], f) else redis.call('HSET', KEYS[5 + t], f, b) end
      if f == F[t] then buckets[t] = b end
    end
    redis.call('HDEL', KP, old)
    redis.call('HDEL', KC, old)
    redis.call('DECR', KN)
  end
end
for t = 1, nt do redis.call('HSET', KEYS[5 + t], F[t], buckets[t] .. R[t]) end
redis.call('INCR', KN)
if urls then
  redis.call('HSET', KP, fp, ARGV[9])
  redis.call('HSET', KC, fp, 1)
  redis.call('HSET', KU, url, '\1' .. fp)
end
return {'N'}
"#;

/// Opens a namespace: `ARGV[1]` = our meta. Replies `{"S", stored meta}` when the
/// namespace exists (wasm compares), `{"C"}` when it was created just now, or
/// `{"F", key, type}` when a key of the namespace holds data of a foreign type, or data
/// exists without a meta (foreign keys, or a namespace whose meta was deleted).
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
return {'U', cluster, redis.call('HGET', KEYS[4], fp) or '0', fp}
"#;

/// Imports pages into an empty namespace (migration from a `ContentSeen` snapshot).
/// `ARGV`: 1 meta, 2 `"first"` on the first batch (refused unless the namespace is empty)
/// else `""`, 3 the number of tables, then groups: `"P"`, fingerprint, page record, count,
/// URL, then per table field and record; or `"A"`, URL, cluster URL. Replies `{"OK"}`.
pub const IMPORT: &str = r#"
local stored = redis.call('GET', KEYS[1])
if not stored then return {'G'} end
if stored ~= ARGV[1] then return {'X', stored} end
if ARGV[2] == 'first' and tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then
  return redis.error_reply('simhash-wasm: import needs an empty namespace')
end
local nt, i = tonumber(ARGV[3]), 4
while i <= #ARGV do
  if ARGV[i] == 'P' then
    local fp, rec, n, url = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
    i = i + 5
    for t = 1, nt do
      local f, r = ARGV[i], ARGV[i + 1]
      i = i + 2
      redis.call('HSET', KEYS[5 + t], f, (redis.call('HGET', KEYS[5 + t], f) or '') .. r)
    end
    redis.call('INCR', KEYS[2])
    if url ~= '' then
      redis.call('HSET', KEYS[3], fp, rec)
      redis.call('HSET', KEYS[4], fp, n)
      redis.call('HSET', KEYS[5], url, '\1' .. fp)
    end
  else
    redis.call('HSET', KEYS[5], ARGV[i + 1], '\2' .. ARGV[i + 2])
    i = i + 3
  end
end
return {'OK'}
"#;
