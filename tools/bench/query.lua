-- wrk script for tilespace serve: GET /api/query with 4096 random 8-puzzle permutations (half of
-- them unreachable: answered from the parity, the others from the table), counting non-200s.
local states = {}
local non200 = 0
math.randomseed(2026)
for i = 1, 4096 do
  local t = {0, 1, 2, 3, 4, 5, 6, 7, 8}
  for k = 9, 2, -1 do
    local j = math.random(k)
    t[k], t[j] = t[j], t[k]
  end
  states[i] = "/api/query?start=" .. table.concat(t, "+")
end
local n = 0
request = function()
  n = n % #states + 1
  return wrk.format("GET", states[n])
end
response = function(status, headers, body)
  if status ~= 200 then non200 = non200 + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-200 responses: %d\n", non200))
end
