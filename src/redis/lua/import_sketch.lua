-- simhash-wasm IMPORT_SKETCH: loads a sketch-mode ContentSeen snapshot (src/redis/script.rs documents its arguments and replies).
-- BEGIN import prelude
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
-- END import prelude

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
      add(KEYS[8] .. ARGV[i], ARGV[i + 1], ARGV[i + 2] .. pn)
      i = i + 3
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
-- BEGIN import flush
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
-- END import flush
redis.call('HSET', KEYS[7], 'n', ARGV[5])
return {'OK'}
