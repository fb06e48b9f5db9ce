#!/usr/bin/env bash
# CPU profile of Folio under one of http-load's wrk workloads, with Debian's perf and the runtime's
# perf map for JIT-compiled frames (W^X off, or perf cannot name them). Usage (after a Release build of tests/Benchmarks):
#   profile-folio.sh DATA_DIR get|put [CONNECTIONS] [SECONDS] [extra Folio.Server arguments…]
# DATA_DIR: a Folio data directory holding database "bench" (http-load leaves one in its work directory).
# Prints perf's top symbols by self time; the full report stays in DATA_DIR/../perf-*.txt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="$1"; workload="$2"; connections="${3:-64}"; seconds="${4:-10}"; shift $(( $# < 4 ? $# : 4 ))
dll="$here/../bin/Release/net10.0/Folio.Server.dll"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 dotnet "$dll" --DataDir="$data" --ServerUrl="http://127.0.0.1:$port" --LogToConsole=false "$@" >/dev/null 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
head -c 1000 /dev/zero | tr '\0' 'x' | sed 's/^/{"Notes":"/; s/$/"}/' > "$data/../profile-body.json"
case "$workload" in
  get) script=(-s "$here/lua/get-random.lua" "http://127.0.0.1:$port" -- "/databases/bench/docs?id=docs/" 100000) ;;
  put) script=(-s "$here/lua/put-new.lua" "http://127.0.0.1:$port" -- "/databases/bench/docs?id=profile/" "$data/../profile-body.json" "p$$") ;;
  *) echo "workload must be get or put" >&2; exit 2 ;;
esac
wrk -t1 -c"$connections" -d3s "${script[@]}" >/dev/null
wrk -t1 -c"$connections" -d"$((seconds + 2))s" "${script[@]}" > "$data/../perf-$workload-wrk.txt" &
load=$!
sleep 1
perf record -F 999 -g -p "$server" -o "$data/../perf-$workload.data" -- sleep "$seconds" 2>/dev/null
wait $load
perf report -i "$data/../perf-$workload.data" --no-children --sort dso,symbol --stdio 2>/dev/null > "$data/../perf-$workload.txt"
grep -E '^ +[0-9.]+%' "$data/../perf-$workload.txt" | head -40
grep -E 'WRK_RESULT' "$data/../perf-$workload-wrk.txt"
