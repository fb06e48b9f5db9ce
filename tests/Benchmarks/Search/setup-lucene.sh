#!/usr/bin/env bash
# Installs the Java Lucene 8 jars (Debian's liblucene8-java) and a JDK that the search benchmark
# (search-load) compares Folio against. Idempotent: does nothing when both are present.
# Never needed by `dotnet test`.
set -euo pipefail

# Debian names the jars after 8.7.0 while the package is 8.8.1; match any Lucene 8 build.
have_jars() {
  compgen -G '/usr/share/java/lucene-core-8*.jar' >/dev/null &&
    compgen -G '/usr/share/java/lucene-analyzers-common-8*.jar' >/dev/null
}

packages=()
have_jars || packages+=(liblucene8-java)
# Single-file source programs need javac's compiler API, so a JRE alone is not enough.
command -v javac >/dev/null 2>&1 || packages+=(default-jdk-headless)

if [[ ${#packages[@]} -eq 0 ]]; then
  echo "Lucene 8 jars and a JDK are already installed."
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends "${packages[@]}"

have_jars || { echo "Lucene 8 jars are still missing from /usr/share/java after the install." >&2; exit 1; }
echo "Installed: ${packages[*]}"
