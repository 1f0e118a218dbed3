-- simhash-wasm LOOKUP: a URL's cluster and count (src/redis/script.rs documents its arguments and replies).
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
