# Sourced by the load scripts here: start_server LABEL SERVER_DLL PORT starts a fresh server with its own data
# directory and a database "bench"; stop_server stops it and removes the directory; summary turns wrk's output into
# "req/s p50 … p99 … non2xx …".
start_server() {
  dir=/tmp/folio-ab-$1-$$; rm -rf $dir; mkdir -p $dir
  dotnet $2 --DataDir=$dir --ServerUrl=http://127.0.0.1:$3 --TcpPort=0 --LogToConsole=false $EXTRA > $dir.out 2>&1 &
  pid=$!
  for i in $(seq 1 100); do curl -sf -o /dev/null http://127.0.0.1:$3/healthz/ready && break; sleep 0.2; done
  curl -sf -o /dev/null -X PUT http://127.0.0.1:$3/admin/databases -H 'content-type: application/json' -d '{"Name":"bench"}'
}
stop_server() { kill $pid; wait $pid 2>/dev/null; rm -rf $dir $dir.out; }
summary() { echo "$1" | awk '/Requests\/sec/ {r=$2} $1=="50%" {p50=$2} $1=="99%" {p99=$2} /Non-2xx/ {e=$NF} END {printf "%s p50 %s p99 %s non2xx %s", r, p50, p99, e+0}'; }
