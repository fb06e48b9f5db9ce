using System.Text;
using BenchmarkDotNet.Attributes;
using Folio.Storage;
using Folio.Storage.Documents;

namespace Folio.Benchmarks.Documents;

/// <summary>
/// The storage side of a GET by id: open a reader on the last commit and load one document.
/// <code>dotnet run -c Release --project tests/Benchmarks -- --filter '*DocumentReadBenchmarks*' --job short</code>
/// </summary>
[MemoryDiagnoser]
public class DocumentReadBenchmarks
{
    private const int Count = 10_000;
    private DocumentStore _store = null!;
    private string[] _ids = [];
    private int _next;

    [GlobalSetup]
    public void Setup()
    {
        _store = DocumentStore.Open(StorageOptions.InMemory());
        _ids = new string[Count];
        var commands = new List<DocumentCommand>(Count);
        for (var i = 0; i < Count; i++)
        {
            _ids[i] = $"orders/{i}";
            commands.Add(new DocumentCommand(DocumentCommandType.Put, _ids[i], PreparedDocument.Parse(Encoding.UTF8.GetBytes($$"""{"Company":"companies/{{i % 97}}","Total":{{i}},"Notes":"{{new string('x', 900)}}"}""")), null));
        }
        _store.BatchAsync(commands).GetAwaiter().GetResult();
    }

    [GlobalCleanup]
    public void Cleanup() => _store.Dispose();

    [Benchmark]
    public int LoadById()
    {
        using var reader = _store.OpenReader();
        var id = _ids[_next++ % Count];
        return reader.TryGet(id, out var document) ? document.Json.Length : 0;
    }
}
