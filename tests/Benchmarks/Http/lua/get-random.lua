-- GET of a random pre-loaded document: wrk -s get-random.lua URL -- PATH_PREFIX COUNT
-- requests PATH_PREFIX .. n for n uniform in [0, COUNT).
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")

local prefix, count

function init(args)
  prefix = args[1]
  count = tonumber(args[2])
  math.randomseed(os.time() * 64 + tid)
end

function request()
  return wrk.format("GET", prefix .. math.random(0, count - 1))
end
