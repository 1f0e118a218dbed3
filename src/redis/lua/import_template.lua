-- simhash-wasm IMPORT_TEMPLATE: writes one host's template counts (src/redis/template.rs documents its arguments and replies).
local stored = redis.call('GET', KEYS[1])
if not stored then return {'G'} end
if stored ~= ARGV[1] then return {'X', stored} end
local n = tonumber(ARGV[2])
if n > 0 then redis.call('SADD', KEYS[2], unpack(ARGV, 3, 2 + n)) end
if #ARGV > 2 + n then redis.call('HSET', KEYS[3], unpack(ARGV, 3 + n, #ARGV)) end
return {'OK'}
