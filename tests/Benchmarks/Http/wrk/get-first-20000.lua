-- GET of a random document among the first 20,000 a PUT run wrote
request = function()
  return wrk.format("GET", "/databases/bench/docs?id=users/" .. math.random(1, 20000))
end
