-- PUT of a ~1 KB document replacing one of the ids users/1 … users/20000 at random (each a replace once they exist):
-- every write takes the old version out of the collection etag index and appends the new one.
local pad = string.rep("x", 900)
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"
request = function()
  local n = math.random(1, 20000)
  local body = '{"Name":"user ' .. n .. '","Pad":"' .. pad .. '","@metadata":{"@collection":"Users"}}'
  return wrk.format("PUT", "/databases/bench/docs?id=users/" .. n, nil, body)
end
