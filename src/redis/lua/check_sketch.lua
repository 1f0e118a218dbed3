-- simhash-wasm CHECK_SKETCH: the sketch-mode check (src/redis/script.rs documents its arguments and replies).
local call, byte, sub, char, find, bxor, floor = redis.call, string.byte, string.sub, string.char, string.find, bit.bxor, math.floor
local entries, at, fields = ARGV[2], 1, {}
while at <= #entries do
  local a, b, c, d = byte(entries, at, at + 3)
  local n = d and ((a * 256 + b) * 256 + c) * 256 + d
  if not n or at + 3 + n > #entries then return redis.error_reply('simhash-wasm CHECK_SKETCH: an entry is cut short (mixed versions?)') end
  fields[#fields + 1] = sub(entries, at + 4, at + 3 + n)
  at = at + 4 + n
end
if #fields % 5 ~= 0 then return redis.error_reply('simhash-wasm CHECK_SKETCH: an entry has a field missing (mixed versions?)') end
local npages = #fields / 5
local stored = call('GET', KEYS[1])
if stored ~= ARGV[1] then
  local r = stored and {'X', stored} or {'G'}
  local out = {}
  for i = 1, npages do out[i] = r end
  return out
end
local KN, KP, KC, KU, KT, KI, KB = KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local function page_url(v)
  local ver = byte(v, 9)
  if ver == 1 then return sub(v, 10) end
  if ver == 2 then return sub(v, 12 + byte(v, 11)) end
  error('simhash-wasm: a page value of ' .. KP .. ' has an unknown record version (foreign data)')
end
-- A URL-map value's kind: 3 or 6 a stored page, 2 or 5 an alias (6 and 5 carry check ids).
local function stored_kind(c) local v = byte(c, 1) return v == 3 or v == 6 end
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
local fp, cid, K, nt = sub(q, 1, 8), sub(q, 9, 16), byte(q, 17), byte(q, 18)
local H, F, R, pos = {}, {}, {}, 19
for t = 1, nt do
  local hl, fl, rl = byte(q, pos, pos + 2)
  pos = pos + 3
  H[t], F[t], R[t] = KT .. sub(q, pos, pos + hl - 1), sub(q, pos + hl, pos + hl + fl - 1), sub(q, pos + hl + fl, pos + hl + fl + rl - 1)
  pos = pos + hl + fl + rl
end
local nb = byte(q, pos)
pos = pos + 1
-- Per band: its bucket's hash and field, and the band record's first byte (BK).
local BH, BF, BK = {}, {}, {}
for b = 1, nb do
  local hl, fl = byte(q, pos, pos + 1)
  pos = pos + 2
  BH[b], BF[b], BK[b] = KB .. sub(q, pos, pos + hl - 1), sub(q, pos + hl, pos + hl + fl - 1), sub(q, pos + hl + fl, pos + hl + fl)
  pos = pos + hl + fl + 1
end
local zlim = byte(q, pos) * 256 + byte(q, pos + 1)
local c16 = ((byte(q, pos + 2) * 256 + byte(q, pos + 3)) * 256 + byte(q, pos + 4)) * 256 + byte(q, pos + 5)
local emin = byte(q, pos + 6) * 256 + byte(q, pos + 7)
local rec = sub(q, pos + 8)
local seen, fresh, out = {}, {}, {'C'}
for i = 1, #ev, 4 do seen[sub(ev, i, i + 3)] = true end
-- A call repeated after a lost reply: its check id says what its first attempt decided.
local cur = call('HGET', KU, url)
if cur then
  local v, replay = byte(cur, 1), nil
  if v == 6 and sub(cur, 6, 13) == cid then return {'R'} end
  if v == 6 and #cur > 13 then
    local ids, c = counted(sub(cur, 14))
    if has_id(ids, cid) then replay = c == '' and url or c end
  elseif v == 5 then
    local ids, c = counted(sub(cur, 2))
    if has_id(ids, cid) then replay = c end
  end
  if replay then
    local c = replay == url and cur or call('HGET', KU, replay)
    local n = c and stored_kind(c) and call('HGET', KC, sub(c, 2, 5))
    local res = {'R', replay, n or '1'}
    for j = 1, #mb, 4 do
      local v = call('HGET', KP, sub(mb, j, j + 3))
      res[#res + 1] = v and ('1' .. page_url(v)) or '0'
    end
    return res
  end
end
local buckets = {}
for t = 1, nt do
  local r, b = R[t], call('HGET', H[t], F[t])
  local rl = #r
  local st = rl + 4
  if b then
    if #b % st ~= 0 then return {'F', 'a bucket of ' .. H[t] .. ' has a length that is not a multiple of its record size'} end
    -- BEGIN nibble setup
    local q1, q2, q3, q4, q5, q6, q7, q8 = byte(r, 1, rl)
    local l1, l2, l3, l4, l5, l6, l7, l8 = (q1 or 0) % 16, (q2 or 0) % 16, (q3 or 0) % 16, (q4 or 0) % 16, (q5 or 0) % 16, (q6 or 0) % 16, (q7 or 0) % 16, (q8 or 0) % 16
    local h1, h2, h3, h4, h5, h6, h7, h8 = (q1 or 0) - l1, (q2 or 0) - l2, (q3 or 0) - l3, (q4 or 0) - l4, (q5 or 0) - l5, (q6 or 0) - l6, (q7 or 0) - l7, (q8 or 0) - l8
    -- END nibble setup
    for o = 1, #b, st do
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
        local pn = sub(b, o + rl, o + rl + 3)
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
    if #v % 5 ~= 0 then return {'F', 'a bucket of ' .. BH[b] .. ' has a length that is not a multiple of 5'} end
    bb[b] = v
    -- Band records (5 bytes) whose first byte is the query's: found by string.find,
    -- kept only at a record's start.
    local kb = BK[b]
    local o = find(v, kb, 1, true)
    while o do
      if o % 5 == 1 then
        local pn = sub(v, o + 1, o + 4)
        if not seen[pn] and not fresh[pn] then
          fresh[pn] = true
          local pv = call('HGET', KP, pn)
          if pv and passes(pv) then out[#out + 1] = pn; out[#out + 1] = pv end
        end
      end
      o = find(v, kb, o + 1, true)
    end
  end
end
if #out > 1 then return out end
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
    if cur and stored_kind(cur) then
      -- The URL is a stored page: it stays one; remember this check and its cluster (empty: itself).
      local own = byte(cur, 1) == 6
      call('HSET', KU, url, '\6' .. sub(cur, 2, 5) .. (own and sub(cur, 6, 13) or '\0\0\0\0\0\0\0\0') .. with_id(own and sub(cur, 14), best == url and '' or best, cid))
    elseif best ~= url then
      call('HSET', KU, url, '\5' .. with_id(cur and byte(cur, 1) == 5 and sub(cur, 2), best, cid))
    end
    res[2], res[3] = best, tostring(n)
    return res
  end
end
if cur and stored_kind(cur) then
  local old = sub(cur, 2, 5)
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
    local h, f, r = KB .. sub(rep, j, j + hl - 1), sub(rep, j + hl, j + hl + fl - 1), sub(rep, j + hl + fl, j + hl + fl) .. old
    j = j + hl + fl + 1
    local b = call('HGET', h, f) or ''
    for o = 0, #b - 5, 5 do
      if sub(b, o + 1, o + 5) == r then b = sub(b, 1, o) .. sub(b, o + 6); break end
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
if id > 4294967295 then return {'F', 'the namespace has given out all 2^32 page numbers'} end
local pn = char(floor(id / 16777216) % 256, floor(id / 65536) % 256, floor(id / 256) % 256, id % 256)
for t = 1, nt do call('HSET', H[t], F[t], buckets[t] .. R[t] .. pn) end
for b = 1, nb do call('HSET', BH[b], BF[b], bb[b] .. BK[b] .. pn) end
call('INCR', KN)
call('HSET', KP, pn, fp .. rec)
call('HSET', KU, url, '\6' .. pn .. cid .. kept(cur, 6, 14))
return {'N'}
end
local out = {}
for i = 0, npages - 1 do
  local f = 5 * i
  out[i + 1] = check(fields[f + 1], fields[f + 2], fields[f + 3], fields[f + 4], fields[f + 5])
end
return out
