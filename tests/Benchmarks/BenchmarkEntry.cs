using BenchmarkDotNet.Running;
using Folio.Benchmarks.Storage;

namespace Folio.Benchmarks;

/// <summary>
/// Runs the BenchmarkDotNet suites: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*Name*'</c>.
/// Whole-workload drivers that BenchmarkDotNet's iteration model does not fit are named commands instead:
/// <c>storage-load</c> (Folio vs LMDB) and <c>journal-sync</c> (the journal's write-and-sync choice).
/// </summary>
public static class BenchmarkEntry
{
    public static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == StorageLoad.Command)
            return StorageLoad.Run(args[1..]);
        if (args.Length > 0 && args[0] == JournalSync.Command)
            return JournalSync.Run(args[1..]);
        BenchmarkSwitcher.FromAssembly(typeof(BenchmarkEntry).Assembly).Run(args);
        return 0;
    }
}
