using BenchmarkDotNet.Running;
using Folio.Benchmarks.Http;
using Folio.Benchmarks.Search;
using Folio.Benchmarks.Storage;

namespace Folio.Benchmarks;

/// <summary>
/// Runs the BenchmarkDotNet suites: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*Name*'</c>.
/// Whole-workload drivers that BenchmarkDotNet's iteration model does not fit are named commands instead:
/// <c>storage-load</c> (Folio vs LMDB), <c>journal-sync</c> (the journal's write-and-sync choice) and
/// <c>search-load</c> (Folio's search engine vs Java Lucene), <c>http-load</c> and <c>query-load</c> (the server over HTTP).
/// </summary>
public static class BenchmarkEntry
{
    private static readonly Dictionary<string, Func<string[], int>> Commands = new(StringComparer.Ordinal)
    {
        [StorageLoad.Command] = StorageLoad.Run,
        [JournalSync.Command] = JournalSync.Run,
        ["search-load"] = SearchLoadCommand.Run,
        [HttpLoadCommand.Command] = HttpLoadCommand.Run,
        [QueryLoadCommand.Command] = QueryLoadCommand.Run,
    };

    public static int Main(string[] args)
    {
        if (args.Length > 0 && Commands.TryGetValue(args[0], out var command))
            return command(args[1..]);
        BenchmarkSwitcher.FromAssembly(typeof(BenchmarkEntry).Assembly).Run(args);
        return 0;
    }
}
