-- simhash-wasm OPEN: creates or checks a namespace (src/redis/script.rs documents its arguments and replies).
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
if stored then
  -- A namespace of an older store format with our settings: upgraded in place.
  for i = 4, #ARGV do
    if ARGV[i] ~= '' and stored == ARGV[i] then
      redis.call('SET', KEYS[1], ARGV[1])
      return {'U'}
    end
  end
  return {'S', stored}
end
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
-- Sketch mode: every band hash too (KEYS[8] is the band prefix; 2^10 names a band).
local nbands = string.byte(ARGV[3]) or 0
for b = 0, nbands - 1 do
  local batch = {}
  for i = 0, 1023 do
    batch[#batch + 1] = string.format('%s%d:%03x', KEYS[8], b, i)
    if #batch == 1000 or i == 1023 then
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
