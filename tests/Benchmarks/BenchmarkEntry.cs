using BenchmarkDotNet.Running;

namespace Folio.Benchmarks;

/// <summary>Runs the BenchmarkDotNet suites: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*Name*'</c>.</summary>
public static class BenchmarkEntry
{
    public static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(BenchmarkEntry).Assembly).Run(args);
}
