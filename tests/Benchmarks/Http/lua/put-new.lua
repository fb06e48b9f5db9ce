-- PUT of a 1 KB document under a new id: wrk -s put-new.lua URL -- PATH_PREFIX BODY_FILE RUN_TAG
-- requests PATH_PREFIX .. RUN_TAG-thread-n, so no run overwrites another's documents (CouchDB would
-- answer 409 to a PUT of an existing id without its revision).
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")

local prefix, body, tag
local counter = 0
local headers = { ["Content-Type"] = "application/json" }

function init(args)
  prefix = args[1]
  local file = assert(io.open(args[2], "rb"))
  body = file:read("*a")
  file:close()
  tag = args[3]
end

function request()
  counter = counter + 1
  return wrk.format("PUT", prefix .. tag .. "-" .. tid .. "-" .. counter, headers, body)
end
