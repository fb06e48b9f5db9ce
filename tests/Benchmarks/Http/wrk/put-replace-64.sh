#!/bin/bash
# usage: tests/Benchmarks/Http/wrk/put-replace-64.sh LABEL SERVER_DLL PORT — with 64 connections against a fresh server:
# PUTs of new ids for 5 s (at least the 20,000 replaced next), then 15 s of PUTs replacing ids at random
label=$1; dll=$2; port=$3
dir=/tmp/folio-abr-$label-$$; rm -rf $dir; mkdir -p $dir
dotnet $dll --DataDir=$dir --ServerUrl=http://127.0.0.1:$port --TcpPort=0 --LogToConsole=false $EXTRA > $dir.out 2>&1 &
pid=$!
for i in $(seq 1 100); do curl -sf -o /dev/null http://127.0.0.1:$port/healthz/ready && break; sleep 0.2; done
curl -sf -o /dev/null -X PUT http://127.0.0.1:$port/admin/databases -H 'content-type: application/json' -d '{"Name":"bench"}'
wrk -t2 -c64 -d5s -s "$(dirname "$0")/put-one-writer.lua" http://127.0.0.1:$port > /dev/null
put=$(wrk -t2 -c64 -d15s --latency -s "$(dirname "$0")/put-replace-20000.lua" http://127.0.0.1:$port)
f() { echo "$1" | awk '/Requests\/sec/ {r=$2} $1=="50%" {p50=$2} $1=="99%" {p99=$2} /Non-2xx/ {e=$NF} END {printf "%s p50 %s p99 %s non2xx %s", r, p50, p99, e+0}'; }
echo "$label $(date +%H:%M:%S) load=$(cut -d' ' -f1 /proc/loadavg) REPLACE64 $(f "$put")"
kill $pid; wait $pid 2>/dev/null; rm -rf $dir $dir.out
