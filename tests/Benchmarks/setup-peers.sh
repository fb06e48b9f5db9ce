#!/usr/bin/env bash
# Installs the peer engines the storage benchmarks compare against (LMDB from Debian's liblmdb0).
# Only the benchmarks need it; `dotnet test` never does. Safe to run again: it does nothing when
# the library is already present.
set -euo pipefail

if ldconfig -p | grep -q 'liblmdb\.so\.0'; then
  echo "liblmdb0 already installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; an install without them finds nothing.
if ! apt-cache show liblmdb0 >/dev/null 2>&1; then
  $sudo apt-get update
fi
$sudo apt-get install -y liblmdb0
ldconfig -p | grep 'liblmdb\.so\.0'
