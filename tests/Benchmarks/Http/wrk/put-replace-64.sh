#!/bin/bash
# usage: tests/Benchmarks/Http/wrk/put-replace-64.sh LABEL SERVER_DLL PORT — with 64 connections against a fresh server:
# PUTs of new ids for 5 s (at least the 20,000 replaced next), then 15 s of PUTs replacing ids at random
label=$1; port=$3
here="$(dirname "$0")"
. "$here/server.sh"
start_server "$label" "$2" "$port"
wrk -t2 -c64 -d5s -s "$here/put-one-writer.lua" http://127.0.0.1:$port > /dev/null
put=$(wrk -t2 -c64 -d15s --latency -s "$here/put-replace-20000.lua" http://127.0.0.1:$port)
echo "$label $(date +%H:%M:%S) load=$(cut -d' ' -f1 /proc/loadavg) REPLACE64 $(summary "$put")"
stop_server
