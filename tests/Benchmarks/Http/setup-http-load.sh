#!/usr/bin/env bash
# Installs what the http-load benchmark drives (tests/Benchmarks http-load): wrk from Debian and
# PouchDB Server from npm into node_modules/ beside this script. Idempotent; dotnet test never needs it.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq wrk
fi
if [ ! -x node_modules/.bin/pouchdb-server ]; then
  if ! command -v npm >/dev/null; then
    echo "npm is missing: apt-get install -y nodejs npm" >&2
    exit 1
  fi
  npm install --no-audit --no-fund --loglevel=error
fi
