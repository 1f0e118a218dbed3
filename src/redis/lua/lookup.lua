-- simhash-wasm LOOKUP: a URL's cluster and count (src/redis/script.rs documents its arguments and replies).
local stored = redis.call('GET', KEYS[1])
if not stored then return {'G'} end
if stored ~= ARGV[1] then return {'X', stored} end
local byte, sub = string.byte, string.sub
local cur = redis.call('HGET', KEYS[5], ARGV[2])
if not cur then return {} end
-- URL-map kinds: 1 and 4 a fingerprint, 3 and 6 a page number, 2 and 5 an alias (4, 5 and 6
-- carry check ids, after the fingerprint or page number; before the alias's URL, after
-- their count byte).
local cluster = ARGV[2]
local v = byte(cur, 1)
if v == 2 or v == 5 then
  cluster = v == 2 and sub(cur, 2) or sub(cur, 3 + 8 * byte(cur, 2))
  cur = redis.call('HGET', KEYS[5], cluster)
  if not cur then return {} end
  v = byte(cur, 1)
  if v == 2 or v == 5 then return {} end
end
local page = (v == 3 or v == 6) and sub(cur, 2, 5) or sub(cur, 2, 9)
local n = redis.call('HGET', KEYS[4], page) or '1'
local fp = page
-- Sketch mode: a page number; its value starts with the fingerprint.
if v == 3 or v == 6 then fp = sub(redis.call('HGET', KEYS[3], page) or '', 1, 8) end
return {'U', cluster, n, fp}
