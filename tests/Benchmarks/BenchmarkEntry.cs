using BenchmarkDotNet.Running;
using Folio.Benchmarks.BulkLoad;

namespace Folio.Benchmarks;

/// <summary>
/// Runs the BenchmarkDotNet suites: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*Name*'</c>,
/// or a whole-server load driver: <c>… -- bulk-load [options]</c> (see <see cref="BulkLoadDriver"/>).
/// </summary>
public static class BenchmarkEntry
{
    public static async Task<int> Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "bulk-load")
            return await BulkLoadDriver.RunAsync(args[1..]);
        if (args.Length > 0 && args[0] == "bulk-profile")
            return await BulkProfile.RunAsync(args[1..]);
        BenchmarkSwitcher.FromAssembly(typeof(BenchmarkEntry).Assembly).Run(args);
        return 0;
    }
}
