#!/usr/bin/env pwsh
# Wraps the README's steps: build, test (fast tier), slow (crash/soak tier), bench (BenchmarkDotNet),
# pack (the Folio.Client NuGet package into ./artifacts), docker (the server image from docker/Dockerfile).
param([ValidateSet('build', 'test', 'slow', 'bench', 'pack', 'docker')][string]$Target = 'test', [string]$Filter = '*', [string]$Tag = 'folio:latest')
$ErrorActionPreference = 'Stop'
Set-Location $PSScriptRoot
switch ($Target) {
    'build' { dotnet build Folio.slnx -c Release }
    'test'  { dotnet build Folio.slnx -c Release; dotnet test Folio.slnx -c Release --no-build }
    'slow'  { dotnet build Folio.slnx -c Release; dotnet test Folio.slnx -c Release --no-build --settings tests/slow.runsettings }
    'bench' { dotnet run --project tests/Benchmarks -c Release -- --filter $Filter }
    'pack'  { dotnet pack src/Client/Folio.Client.csproj -c Release -o artifacts }
    'docker' { docker build -f docker/Dockerfile -t $Tag . }
}
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
