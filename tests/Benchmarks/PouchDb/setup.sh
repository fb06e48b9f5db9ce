#!/usr/bin/env bash
# Installs PouchDB Server next to this script for the bulk-load benchmark (tests/Benchmarks bulk-load).
# Idempotent: does nothing when it is already installed. dotnet test never needs it.
set -euo pipefail
cd "$(dirname "$0")"
if [ -x node_modules/.bin/pouchdb-server ]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "npm is missing: apt-get install -y nodejs npm" >&2
  exit 1
fi
npm install --no-audit --no-fund --loglevel=error
