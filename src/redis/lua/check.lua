-- simhash-wasm CHECK: the fingerprint-only check (src/redis/script.rs documents its arguments and replies).
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
-- Without the URL map, '{NS}:r:' .. check id marks a check that stored its page, for a while.
local KR, RETRY_MS = sub(KT, 1, -2) .. 'r:', 600000
local function page_url(rec)
  if not rec then return '' end
  local v = byte(rec, 1)
  if v == 1 then return sub(rec, 2) end
  if v == 2 then return sub(rec, 4 + byte(rec, 3)) end
  return nil
end
-- A URL-map value's kind: 1 or 4 a stored page, 2 or 5 an alias (4 and 5 carry check ids).
local function stored_kind(cur) local v = byte(cur, 1) return v == 1 or v == 4 end
-- BEGIN counted list
-- Counted lists (URL-map values of kinds 4, 5 and 6, src/redis/record.rs): a count byte n,
-- the ids of the last n (at most 4) checks of the URL counted as duplicates, newest first,
-- whichever page each was counted under, then the URL of the page the newest was counted
-- under (empty: the URL's own page). A list outlives a switch of that page, so a repeat
-- whose id is listed is never counted again.
local function counted(t) local n = byte(t, 1) return sub(t, 2, 1 + 8 * n), sub(t, 2 + 8 * n) end
local function has_id(ids, id)
  for o = 1, #ids, 8 do if sub(ids, o, o + 7) == id then return true end end
  return false
end
local function with_id(t, cluster, id)
  local ids = id
  if t and #t > 0 then ids = id .. sub(counted(t), 1, 24) end
  return char(#ids / 8) .. ids .. cluster
end
-- The counted list of a URL's value `cur` (kind `v`; `at`: where a stored page's list
-- starts), kept when the URL's page is stored or replaced.
local function kept(cur, v, at)
  if not cur then return '' end
  local k = byte(cur, 1)
  if k == v then return sub(cur, at) end
  if k == 5 then return sub(cur, 2) end
  return ''
end
-- END counted list
local function check(url, q, ev, mb, rep)
local fp, cid, urls, K, nt = sub(q, 1, 8), sub(q, 9, 16), byte(q, 17) == 1, byte(q, 18), byte(q, 19)
local H, F, R, pos = {}, {}, {}, 20
for t = 1, nt do
  local hl, fl, rl = byte(q, pos, pos + 2)
  pos = pos + 3
  H[t], F[t], R[t] = KT .. sub(q, pos, pos + hl - 1), sub(q, pos + hl, pos + hl + fl - 1), sub(q, pos + hl + fl, pos + hl + fl + rl - 1)
  pos = pos + hl + fl + rl
end
-- A call repeated after a lost reply: its check id says what its first attempt decided.
local cur = nil
if urls then
  cur = call('HGET', KU, url)
  if cur then
    local v = byte(cur, 1)
    local replay = nil
    if v == 4 and sub(cur, 10, 17) == cid then return {'R'} end
    if v == 4 and #cur > 17 then
      local ids, c = counted(sub(cur, 18))
      if has_id(ids, cid) then replay = c == '' and url or c end
    elseif v == 5 then
      local ids, c = counted(sub(cur, 2))
      if has_id(ids, cid) then replay = c end
    end
    if replay then
      local c = replay == url and cur or call('HGET', KU, replay)
      local n = c and stored_kind(c) and call('HGET', KC, sub(c, 2, 9))
      local res, j = {'R', replay, n or '1'}, 1
      while j <= #mb do
        local murl = page_url(call('HGET', KP, sub(mb, j, j + 7)))
        res[#res + 1] = (murl and murl ~= '') and ('1' .. murl) or '0'
        j = j + 10 + #R[byte(mb, j + 9) + 1]
      end
      return res
    end
  end
elseif call('EXISTS', KR .. cid) == 1 then
  return {'R'}
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
    -- BEGIN nibble setup
    local q1, q2, q3, q4, q5, q6, q7, q8 = byte(r, 1, rl)
    local l1, l2, l3, l4, l5, l6, l7, l8 = (q1 or 0) % 16, (q2 or 0) % 16, (q3 or 0) % 16, (q4 or 0) % 16, (q5 or 0) % 16, (q6 or 0) % 16, (q7 or 0) % 16, (q8 or 0) % 16
    local h1, h2, h3, h4, h5, h6, h7, h8 = (q1 or 0) - l1, (q2 or 0) - l2, (q3 or 0) - l3, (q4 or 0) - l4, (q5 or 0) - l5, (q6 or 0) - l6, (q7 or 0) - l7, (q8 or 0) - l8
    -- END nibble setup
    for o = 1, #b, rl do
      -- BEGIN nibble test
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
      -- END nibble test
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
  if cur and stored_kind(cur) then
    -- The URL is a stored page: it stays one; remember this check and its cluster (empty: itself).
    local own = byte(cur, 1) == 4
    call('HSET', KU, url, '\4' .. sub(cur, 2, 9) .. (own and sub(cur, 10, 17) or '\0\0\0\0\0\0\0\0') .. with_id(own and sub(cur, 18), best == url and '' or best, cid))
  elseif best ~= url then
    call('HSET', KU, url, '\5' .. with_id(cur and byte(cur, 1) == 5 and sub(cur, 2), best, cid))
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
  if cur and stored_kind(cur) then
    local old = sub(cur, 2, 9)
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
  call('HSET', KU, url, '\4' .. fp .. cid .. kept(cur, 4, 18))
else
  call('SET', KR .. cid, '1', 'PX', RETRY_MS)
end
return {'N'}
end
local out = {}
for i = 0, npages - 1 do
  local f = 5 * i
  out[i + 1] = check(fields[f + 1], fields[f + 2], fields[f + 3], fields[f + 4], fields[f + 5])
end
return out
