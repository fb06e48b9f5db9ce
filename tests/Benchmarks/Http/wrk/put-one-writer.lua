-- PUT of a ~1 KB document under a new id each request (one connection: one sequential writer)
local counter = 0
local pad = string.rep("x", 900)
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"
request = function()
  counter = counter + 1
  local body = '{"Name":"user ' .. counter .. '","Pad":"' .. pad .. '","@metadata":{"@collection":"Users"}}'
  return wrk.format("PUT", "/databases/bench/docs?id=users/" .. counter, nil, body)
end
