#!/bin/bash
# usage: tests/Benchmarks/Http/wrk/one-writer.sh LABEL SERVER_DLL PORT  — one sequential writer's PUTs (wrk -c1) against a fresh server
label=$1; dll=$2; port=$3
dir=/tmp/folio-ab-$label-$$; rm -rf $dir; mkdir -p $dir
dotnet $dll --DataDir=$dir --ServerUrl=http://127.0.0.1:$port --TcpPort=0 --LogToConsole=false > $dir.out 2>&1 &
pid=$!
for i in $(seq 1 100); do curl -sf -o /dev/null http://127.0.0.1:$port/healthz/ready && break; sleep 0.2; done
curl -sf -o /dev/null -X PUT http://127.0.0.1:$port/admin/databases -H 'content-type: application/json' -d '{"Name":"bench"}'
wrk -t1 -c1 -d5s -s "$(dirname "$0")/put-one-writer.lua" http://127.0.0.1:$port > /dev/null
res=$(wrk -t1 -c1 -d20s --latency -s "$(dirname "$0")/put-one-writer.lua" http://127.0.0.1:$port)
rps=$(echo "$res" | awk '/Requests\/sec/ {print $2}')
p50=$(echo "$res" | awk '$1=="50%" {print $2}')
p99=$(echo "$res" | awk '$1=="99%" {print $2}')
echo "$label $(date +%H:%M:%S) load=$(cut -d' ' -f1 /proc/loadavg) rps=$rps p50=$p50 p99=$p99"
kill $pid; wait $pid 2>/dev/null; rm -rf $dir $dir.out
