using BenchmarkDotNet.Attributes;
using Folio.Benchmarks.Storage.Lmdb;
using Folio.Storage;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// The cost of opening and closing a read transaction, Folio against LMDB's two ways: renewing a
/// reset handle (its cheapest, the pattern LMDB recommends for hot readers) and begin+abort.
/// <code>dotnet run -c Release --project tests/Benchmarks -- --filter '*ReadTransactionBenchmarks*'</code>
/// </summary>
[MemoryDiagnoser]
public class ReadTransactionBenchmarks
{
    private string _root = "";
    private StorageEnvironment _folio = null!;
    private LmdbEnvironment _lmdb = null!;
    private nint _renewable;

    [GlobalSetup]
    public void Setup()
    {
        _root = StorageWorkload.FreshDirectory(Path.GetTempPath(), $"folio-bench-readtxn-{Environment.ProcessId}");
        var keys = StorageWorkload.SequentialKeys(1000);
        var value = StorageWorkload.Value(StorageWorkload.ValueSize);
        _folio = StorageWorkload.OpenFolio(Path.Combine(_root, "folio"));
        StorageWorkload.FolioInsert(_folio, keys, 0, 1000, 1000, value);
        _lmdb = new LmdbEnvironment(Path.Combine(_root, "lmdb"));
        StorageWorkload.LmdbInsert(_lmdb, keys, 0, 1000, 1000, value);
        _renewable = _lmdb.BeginRead();
        LmdbEnvironment.Reset(_renewable);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        LmdbEnvironment.Abort(_renewable);
        _lmdb.Dispose();
        _folio.Dispose();
        Directory.Delete(_root, recursive: true);
    }

    [Benchmark(Baseline = true)]
    public void FolioBeginReadDispose() => _folio.BeginRead().Dispose();

    [Benchmark]
    public void LmdbRenewReset()
    {
        LmdbEnvironment.Renew(_renewable);
        LmdbEnvironment.Reset(_renewable);
    }

    [Benchmark]
    public void LmdbBeginAbort() => LmdbEnvironment.Abort(_lmdb.BeginRead());
}
