using BenchmarkDotNet.Running;
using Folio.Benchmarks.Search;

namespace Folio.Benchmarks;

/// <summary>
/// Runs the BenchmarkDotNet suites: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*Name*'</c>,
/// or the search load test against Java Lucene: <c>dotnet run -c Release --project tests/Benchmarks -- search-load</c>.
/// </summary>
public static class BenchmarkEntry
{
    public static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "search-load")
            return SearchLoadCommand.Run(args[1..]);
        BenchmarkSwitcher.FromAssembly(typeof(BenchmarkEntry).Assembly).Run(args);
        return 0;
    }
}
