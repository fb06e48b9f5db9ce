-- PUT of a ~6 KB document that compresses little (random base64 text), one of N ids at random (FOLIO_IDS, default
-- 20000): the first pass inserts, later ones replace. Bodies of 4-8 KB once stored are what value heap runs hold.
local ids = tonumber(os.getenv("FOLIO_IDS") or "20000")
local chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local pool = {}
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"
init = function(args)
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
  for p = 1, 32 do
    local t = {}
    for i = 1, 6000 do
      local c = math.random(1, 64)
      t[i] = chars:sub(c, c)
    end
    pool[p] = table.concat(t)
  end
end
request = function()
  local id = math.random(1, ids)
  local body = '{"Name":"blob ' .. id .. '","Data":"' .. pool[math.random(1, 32)] .. '","@metadata":{"@collection":"Blobs"}}'
  return wrk.format("PUT", "/databases/bench/docs?id=blobs/" .. id, nil, body)
end
