#!/usr/bin/env bash
# Runs the seeds' system's official Node.js client test suite against Folio and summarizes it per test folder.
#
#   tests/RavenClients/run-node-suite.sh /path/to/ravendb-nodejs-client [extra mocha arguments…]
#
# The checkout is the client's repository (branch v5.4 tested; see docs/ravendb-clients.md). The script builds
# Folio (Release), installs the suite's npm dependencies (npm ci, once), compiles the suite (tsc), lists every test
# (mocha --dry-run), runs mocha with RAVENDB_TEST_SERVER_PATH pointing at folio-test-server.js (which starts Folio
# on a free port in a temporary data directory and prints "Server available on: URL"), and prints passed /
# failed / pending per folder, in scope and out of scope (cluster, replication, ETL, time series, counters,
# attachments, revisions, certificates, backups, …). Reports go to $OUT (default: ./ravendb-node-suite).
# Environment: OUT, FOLIO_TEST_SERVER_LOG (Folio's log file), SKIP_BUILD=1 (reuse the built Folio and suite).
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/package.json" ]; then
    echo "usage: $0 SUITE_CHECKOUT [mocha arguments…]" >&2
    exit 2
fi
command -v node >/dev/null || { echo "node is required (v16 or later)" >&2; exit 2; }

suite="$(cd "$1" && pwd)"
shift
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$(mkdir -p "${OUT:-ravendb-node-suite}" && cd "${OUT:-ravendb-node-suite}" && pwd)"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    echo "== building Folio (Release)"
    dotnet build "$repo/src/Server" -c Release -nologo -v quiet
    echo "== installing and compiling the suite in $suite"
    (cd "$suite" && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npx tsc -p tsconfig.test.json && cp test/Assets/* .test/test/Assets/)
fi

export RAVENDB_TEST_SERVER_PATH="$here/folio-test-server.js"
export FOLIO_TEST_SERVER_LOG="${FOLIO_TEST_SERVER_LOG:-$out/folio-server.log}"
cd "$suite"
echo "== listing tests"
npx mocha .test/test --dry-run --reporter json --reporter-option "output=$out/dry-run.json" "$@" >/dev/null
echo "== running (Folio's log: $FOLIO_TEST_SERVER_LOG)"
npx mocha .test/test --reporter json --reporter-option "output=$out/report.json" "$@" >"$out/mocha.out" 2>&1 || true
node "$here/summarize.js" "$out/dry-run.json" "$out/report.json" | tee "$out/summary.txt"
node "$here/summarize.js" "$out/dry-run.json" "$out/report.json" --markdown >"$out/summary.md"
echo "== reports in $out"
