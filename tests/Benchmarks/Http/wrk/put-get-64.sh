#!/bin/bash
# usage: tests/Benchmarks/Http/wrk/put-get-64.sh LABEL SERVER_DLL PORT — PUT then GET with 64 connections against a fresh server
label=$1; port=$3
here="$(dirname "$0")"
. "$here/server.sh"
start_server "$label" "$2" "$port"
wrk -t2 -c64 -d5s -s "$here/put-one-writer.lua" http://127.0.0.1:$port > /dev/null
put=$(wrk -t2 -c64 -d15s --latency -s "$here/put-one-writer.lua" http://127.0.0.1:$port)
wrk -t2 -c64 -d3s -s "$here/get-first-20000.lua" http://127.0.0.1:$port > /dev/null
get=$(wrk -t2 -c64 -d15s --latency -s "$here/get-first-20000.lua" http://127.0.0.1:$port)
echo "$label $(date +%H:%M:%S) load=$(cut -d' ' -f1 /proc/loadavg) PUT64 $(summary "$put") | GET64 $(summary "$get")"
stop_server
