using System.Text;
using BenchmarkDotNet.Attributes;
using Folio.Storage;
using Folio.Storage.Documents;

namespace Folio.Benchmarks.Documents;

/// <summary>
/// The storage side of concurrent PUTs: 64 writers each storing a new 1 KB document through the merger,
/// which runs them in shared transactions, durable on a real file as the server's are (the sync is
/// what lets requests gather into one transaction).
/// <code>dotnet run -c Release --project tests/Benchmarks -- --filter '*DocumentWriteBenchmarks*' --job short</code>
/// </summary>
[MemoryDiagnoser]
public class DocumentWriteBenchmarks
{
    private const int Writers = 64;
    private readonly Task[] _writes = new Task[Writers];
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "folio-write-bench-" + Guid.NewGuid().ToString("N"));
    private DocumentStore _store = null!;
    private PreparedDocument _document = null!;
    private string[] _ids = [];
    private int _round;

    [GlobalSetup]
    public void Setup()
    {
        _store = DocumentStore.Open(StorageOptions.ForPath(_directory));
        _document = PreparedDocument.Parse(Encoding.UTF8.GetBytes($$"""{"Company":"companies/7","Total":42,"Notes":"{{new string('x', 950)}}"}"""));
        _ids = new string[1_000_000];
        for (var i = 0; i < _ids.Length; i++)
            _ids[i] = $"orders/{i}";
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _store.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    /// <summary>64 PUTs of new documents, awaited together; divide by 64 for one PUT.</summary>
    [Benchmark(OperationsPerInvoke = Writers)]
    public async Task Put64Concurrent()
    {
        var first = _round++ * Writers % (_ids.Length - Writers);
        for (var i = 0; i < Writers; i++)
            _writes[i] = _store.PutAsync(_ids[first + i], _document);
        await Task.WhenAll(_writes);
    }
}
