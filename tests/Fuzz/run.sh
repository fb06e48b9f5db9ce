#!/usr/bin/env bash
# Fuzzes one parser with AFL++ for a number of minutes (README.md beside this file).
#   tests/Fuzz/run.sh HARNESS MINUTES     e.g. tests/Fuzz/run.sh rql 8
#   tests/Fuzz/run.sh --list
# Needs afl++ (apt-get install -y afl++) and the SharpFuzz tool (restored here from .config/dotnet-tools.json).
# Work goes to ${FUZZ_WORK:-/tmp/folio-fuzz}/HARNESS: the instrumented build and one findings folder per run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

if [ "${1:-}" = "--list" ]; then
  ls "$here/corpus"
  exit 0
fi
if [ $# -ne 2 ] || [ ! -d "$here/corpus/$1" ]; then
  echo "usage: $0 HARNESS MINUTES   (harnesses: $(ls "$here/corpus" | tr '\n' ' '))" >&2
  exit 2
fi
harness=$1
minutes=$2
work=${FUZZ_WORK:-/tmp/folio-fuzz}/$harness
command -v afl-fuzz >/dev/null || { echo "afl-fuzz is missing: apt-get install -y afl++" >&2; exit 1; }

# A fresh copy of the build each time: SharpFuzz instruments assemblies in place and refuses to do it twice.
(cd "$here" && dotnet tool restore >/dev/null)
# FUZZ_SKIP_BUILD=1 reuses the last build (a no-op build still takes minutes on a busy machine).
if [ -z "${FUZZ_SKIP_BUILD:-}" ] || [ ! -f "$here/bin/Release/net10.0/Folio.Fuzz.dll" ]; then
  dotnet build "$here/Folio.Fuzz.csproj" -c Release -v quiet -nologo >/dev/null
fi
rm -rf "$work/bin"
mkdir -p "$work"
cp -r "$here/bin/Release/net10.0" "$work/bin"
for assembly in Folio.Storage Folio.Indexing Folio.Server; do
  (cd "$here" && dotnet sharpfuzz "$work/bin/$assembly.dll" >/dev/null)
done

# dotnet is not an AFL-instrumented binary (the managed code is: SharpFuzz's fork server reports its coverage),
# and the runtime takes a while to start, hence the skipped check and the long first-contact timeout.
export AFL_SKIP_BIN_CHECK=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_NO_UI=1 AFL_FORKSRV_INIT_TMOUT=60000 \
  AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 DOTNET_gcServer=0 DOTNET_TieredPGO=0
# On a loaded machine the first input's run sometimes reports no coverage at all (the harness's runtime is still
# starting) and afl-fuzz gives up with "No instrumentation detected"; a second start goes through.
for attempt in 1 2 3; do
  findings=$work/findings-$(date -u +%Y%m%dT%H%M%S)
  # One input may take up to two seconds before AFL calls it a hang; a shared machine, hence nice.
  FOLIO_FUZZ_LOG=$findings.exceptions.log nice -n 19 afl-fuzz -i "$here/corpus/$harness" -o "$findings" -V $((minutes * 60)) -t 2000 -m none \
    -- dotnet "$work/bin/Folio.Fuzz.dll" "$harness" > "$findings.afl.log" 2>&1 || true
  if [ -f "$findings/default/fuzzer_stats" ] || ! grep -q "No instrumentation detected" "$findings.afl.log"; then
    break
  fi
  echo "attempt $attempt: afl-fuzz saw no coverage on the first input; starting again" >&2
  sleep 5
done
tail -n 5 "$findings.afl.log"

stats=$findings/default/fuzzer_stats
if [ ! -f "$stats" ]; then
  echo "afl-fuzz did not start; see its output above" >&2
  exit 1
fi
grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|edges_found|saved_crashes|saved_hangs)' "$stats"
crashes=$(find "$findings/default/crashes" "$findings/default/hangs" -type f -name 'id:*' 2>/dev/null | wc -l)
echo "findings: $findings ($crashes crashing or hanging inputs; exceptions in $findings.exceptions.log)"
echo "replay (uninstrumented): dotnet $here/bin/Release/net10.0/Folio.Fuzz.dll $harness FILE..."
