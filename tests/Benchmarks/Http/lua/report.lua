-- Shared by the http-load and query-load scripts: numbers the threads and prints one line the
-- harness parses (wrk's own report is for people).
local next_thread = 0

function setup(thread)
  thread:set("tid", next_thread)
  next_thread = next_thread + 1
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRK_RESULT requests=%d duration_us=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d p50_us=%.0f p90_us=%.0f p99_us=%.0f max_us=%.0f\n",
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
