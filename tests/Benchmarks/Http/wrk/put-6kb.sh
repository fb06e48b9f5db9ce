#!/bin/bash
# usage: tests/Benchmarks/Http/wrk/put-6kb.sh LABEL SERVER_DLL PORT [CONNECTIONS] — PUTs of ~6 KB documents that compress
# little, inserting then replacing 20,000 ids at random, against a fresh server; prints req/s, latency, and the data
# file and journal bytes written (the server's /admin/stats) once the run ends.
label=$1; dll=$2; port=$3; conns=${4:-1}
dir=/tmp/folio-ab-$label-$$; rm -rf $dir; mkdir -p $dir
dotnet $dll --DataDir=$dir --ServerUrl=http://127.0.0.1:$port --TcpPort=0 --LogToConsole=false > $dir.out 2>&1 &
pid=$!
for i in $(seq 1 100); do curl -sf -o /dev/null http://127.0.0.1:$port/healthz/ready && break; sleep 0.2; done
curl -sf -o /dev/null -X PUT http://127.0.0.1:$port/admin/databases -H 'content-type: application/json' -d '{"Name":"bench"}'
res=$(wrk -t1 -c$conns -d30s --latency -s "$(dirname "$0")/put-6kb.lua" http://127.0.0.1:$port)
rps=$(echo "$res" | awk '/Requests\/sec/ {print $2}')
p50=$(echo "$res" | awk '$1=="50%" {print $2}')
p99=$(echo "$res" | awk '$1=="99%" {print $2}')
journal=$(curl -sf http://127.0.0.1:$port/databases/bench/stats | grep -o '"JournalBytesWritten":[0-9]*' | cut -d: -f2)
kill $pid; wait $pid 2>/dev/null
size=$(du -sb $dir/Databases/bench 2>/dev/null | cut -f1)
echo "$label $(date +%H:%M:%S) load=$(cut -d' ' -f1 /proc/loadavg) c=$conns rps=$rps p50=$p50 p99=$p99 journal_bytes=$journal stopped_bytes=$size"
rm -rf $dir $dir.out
