#!/usr/bin/env bash
# CPU profile of Folio rebuilding one index, with Debian's perf and the runtime's perf map for JIT-compiled
# frames. Usage (after a Release build of tests/Benchmarks, on the data a kept run left):
#   dotnet run -c Release --project tests/Benchmarks -- mapreduce-load --skip-pouchdb --skip-incremental --keep
#   profile-index-build.sh /tmp/folio-mapreduce-load-…/folio Orders/ByProduct [warm]
# Starts Folio.Server on DATA_DIR (database "bench"), resets INDEX (its data thrown away, rebuilt from the
# documents; with "warm", once unrecorded first, so the JIT has compiled the hot paths), records the server with perf until the index's stats say it is not stale, and prints perf's top
# symbols by self time and by inclusive time, and the samples put in buckets by perf-buckets.py; the reports
# stay beside DATA_DIR (perf-INDEX-*.txt).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="$1"; index="$2"; warm="${3:-}"
dll="$here/../bin/Release/net10.0/Folio.Server.dll"
out="$(dirname "$data")/perf-${index//\//-}"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port/databases/bench"
DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 dotnet "$dll" --DataDir="$data" --ServerUrl="http://127.0.0.1:$port" --LogToConsole=false >/dev/null 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done

# Prints "current" once INDEX is not stale and has processed every document.
state() {
  curl -sf "$base/indexes/stats" | python3 -c '
import json, sys
name = sys.argv[1]
for i in json.load(sys.stdin)["Results"]:
    if i["Name"] == name:
        print("current" if not i["IsStale"] and i["ProcessedEtag"] >= i["LastDocEtag"] else "stale", i["ProcessedEtag"], i["LastDocEtag"])
' "$index"
}
until [ "$(state | cut -d' ' -f1)" = current ]; do sleep 1; done   # whatever opening the database started
encoded=$(python3 -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1], safe=""))' "$index")
if [ "$warm" = warm ]; then
  curl -sf -X POST "$base/indexes/reset?name=$encoded" >/dev/null
  sleep 1; until [ "$(state | cut -d' ' -f1)" = current ]; do sleep 0.5; done
fi
cpu_before=$(awk '{print $14 + $15}' "/proc/$server/stat")
start=$(date +%s.%N)
curl -sf -X POST "$base/indexes/reset?name=$encoded" >/dev/null
perf record -F 499 -g -p "$server" -o "$out.data" 2>/dev/null &
recorder=$!
until [ "$(state | cut -d' ' -f1)" = current ]; do sleep 0.2; done
end=$(date +%s.%N)
cpu_after=$(awk '{print $14 + $15}' "/proc/$server/stat")
kill -INT $recorder; wait $recorder 2>/dev/null || true
echo "rebuild of $index: $(python3 -c "print(round($end - $start, 2))") s, server CPU $(( (cpu_after - cpu_before) / $(getconf CLK_TCK) )) s, load $(cut -d' ' -f1 /proc/loadavg)"
perf report -i "$out.data" --no-children --sort dso,symbol --stdio 2>/dev/null > "$out-self.txt"
perf report -i "$out.data" --children --sort symbol --stdio -g none 2>/dev/null > "$out-children.txt"
perf script -i "$out.data" -F comm,tid,ip,sym,dso 2>/dev/null > "$out-script.txt"
echo "--- buckets"; python3 "$here/perf-buckets.py" "$out-script.txt"
echo "--- self"; grep -E '^ +[0-9.]+%' "$out-self.txt" | head -40
echo "--- inclusive"; grep -E '^ +[0-9.]+%' "$out-children.txt" | head -60
