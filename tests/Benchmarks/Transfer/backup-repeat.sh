#!/bin/bash
# usage: tests/Benchmarks/Transfer/backup-repeat.sh LABEL SERVER_DLL PORT EXPORT_GZ [RUNS]
# Imports a gzipped NDJSON export (transfer-load's export.ndjson.gz) into a fresh server's database, gives the
# flusher 5 s, then times RUNS (default 4) full backups of it, one after another: the backup alone, without
# transfer-load's index build and other steps beside it.
label=$1; port=$3; export_gz=$4; runs=${5:-4}
. "$(dirname "$0")/../Http/wrk/server.sh"
start_server "$label" "$2" "$port"
curl -sf -o /dev/null -X POST "http://127.0.0.1:$port/databases/bench/import" -H 'content-type: application/gzip' --data-binary @"$export_gz" || { echo "$label: import failed"; stop_server; exit 1; }
sleep 5
line="$label $(date +%H:%M:%S) load=$(cut -d' ' -f1 /proc/loadavg) backup s:"
for r in $(seq 1 "$runs"); do
  start=$(date +%s.%N)
  curl -sf -o /dev/null -X POST "http://127.0.0.1:$port/admin/databases/bench/backup" -H 'content-type: application/json' -d "{\"Directory\":\"$dir/backup-$r\"}" || { echo "$label: backup failed"; stop_server; exit 1; }
  line="$line $(echo "$(date +%s.%N) - $start" | bc | xargs printf '%.2f')"
  rm -rf "$dir/backup-$r"
done
echo "$line"
stop_server
