using BenchmarkDotNet.Attributes;
using Folio.Benchmarks.Storage.Lmdb;
using Folio.Storage;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// Random point reads over 1M items (16-byte random keys, 128-byte values) held by each engine, on
/// 1 and 2 threads; each thread reads in snapshots of 1,000 lookups. An invocation splits a fixed
/// number of reads across the threads, so Mean is wall time per read and reads/s is 1e9 / Mean.
/// <code>dotnet run -c Release --project tests/Benchmarks -- --filter '*RandomReadBenchmarks*'</code>
/// </summary>
[MemoryDiagnoser]
public class RandomReadBenchmarks
{
    private const int Items = 1_000_000;
    private const int ReadsPerThread = 200_000;

    private string _root = "";
    private byte[] _keys = [];
    private StorageEnvironment _folio = null!;
    private LmdbEnvironment _lmdb = null!;

    [Params(1, 2)]
    public int Threads { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _root = StorageWorkload.FreshDirectory(Path.GetTempPath(), $"folio-bench-reads-{Environment.ProcessId}");
        _keys = StorageWorkload.RandomKeys(Items, seed: 17);
        var value = StorageWorkload.Value(StorageWorkload.ValueSize);
        _folio = StorageWorkload.OpenFolio(Path.Combine(_root, "folio"));
        StorageWorkload.FolioInsert(_folio, _keys, 0, Items, 50_000, value);
        _folio.FlushToDataFile();
        _lmdb = new LmdbEnvironment(Path.Combine(_root, "lmdb"));
        StorageWorkload.LmdbInsert(_lmdb, _keys, 0, Items, 50_000, value);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _lmdb.Dispose();
        _folio.Dispose();
        Directory.Delete(_root, recursive: true);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = ReadsPerThread)]
    public void Folio() => StorageWorkload.OnThreads(Threads, t => StorageWorkload.FolioRead(_folio, _keys, Items, ReadsPerThread / Threads, seed: t + 1));

    [Benchmark(OperationsPerInvoke = ReadsPerThread)]
    public void Lmdb() => StorageWorkload.OnThreads(Threads, t => StorageWorkload.LmdbRead(_lmdb, _keys, Items, ReadsPerThread / Threads, seed: t + 1));
}
