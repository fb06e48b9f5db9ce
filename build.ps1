#!/usr/bin/env pwsh
# Wraps the README's steps: build, test (fast tier), slow (crash/soak tier), bench (BenchmarkDotNet).
param([ValidateSet('build', 'test', 'slow', 'bench')][string]$Target = 'test', [string]$Filter = '*')
$ErrorActionPreference = 'Stop'
Set-Location $PSScriptRoot
switch ($Target) {
    'build' { dotnet build Folio.slnx -c Release }
    'test'  { dotnet build Folio.slnx -c Release; dotnet test Folio.slnx -c Release --no-build }
    'slow'  { dotnet build Folio.slnx -c Release; dotnet test Folio.slnx -c Release --no-build --settings tests/slow.runsettings }
    'bench' { dotnet run --project tests/Benchmarks -c Release -- --filter $Filter }
}
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
