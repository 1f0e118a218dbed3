-- simhash-wasm LEARN: counts one page in its host's template (src/redis/template.rs documents its arguments and replies).
local stored = redis.call('GET', KEYS[1])
if not stored then return {'G'} end
if stored ~= ARGV[1] then return {'X', stored} end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return {'0'} end
if redis.call('SADD', KEYS[2], ARGV[2]) == 0 then return {'0'} end
for i = 4, #ARGV do redis.call('HINCRBY', KEYS[3], ARGV[i], 1) end
return {'1'}
