-- POST of a random line of a file of request bodies: wrk -s post-random-body.lua URL -- PATH BODIES_FILE
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")

local path
local bodies = {}
local headers = { ["Content-Type"] = "application/json" }

function init(args)
  path = args[1]
  for line in io.lines(args[2]) do
    bodies[#bodies + 1] = line
  end
  math.randomseed(os.time() * 64 + tid)
end

function request()
  return wrk.format("POST", path, headers, bodies[math.random(1, #bodies)])
end
