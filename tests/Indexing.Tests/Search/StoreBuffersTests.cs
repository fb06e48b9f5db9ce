using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// A batch's posting and point stores borrow the index's arrays: a stream of small batches allocated two large
/// objects per field per batch, which kept the collector in background full collections and the heap fragmented.
/// </summary>
public sealed class StoreBuffersTests : IDisposable
{
    private const int Entries = 20_000;
    private readonly SearchIndex _index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema()
        .Add("Company", FieldKind.Exact)
        .Add("Total", FieldKind.Double)
        .Add("Body", FieldKind.FullText));

    public StoreBuffersTests()
    {
        using var batch = _index.BeginBatch();
        for (var i = 0; i < Entries; i++)
            batch.Add(Entry(i, i));
        batch.Commit();
    }

    public void Dispose() => _index.Dispose();

    private static IndexEntry Entry(int key, int value) =>
        new IndexEntry($"orders/{key}").Add("Company", $"companies/{value % 30}").Add("Total", value % 997 / 4.0).Add("Body", $"order {value % 50} shipped");

    [Fact]
    public void Commit_SmallBatchesOfUpdates_AllocateNoStoreArraysPerField()
    {
        var random = new Random(3);
        var least = long.MaxValue;
        for (var round = 0; round < 20; round++)
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            using (var batch = _index.BeginBatch())
            {
                for (var i = 0; i < 4; i++)
                {
                    var key = random.Next(Entries);
                    batch.Delete($"orders/{key}");
                    batch.Add(Entry(key, random.Next(100_000)));
                }
                batch.Commit();
            }
            least = Math.Min(least, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        // With each store's own arrays (~220 KB, a 123 KB encoding buffer among them, two stores per field) this
        // batch allocated 1.66 MB; borrowing them, 0.3 MB.
        Assert.True(least < 600_000, $"A batch of 4 updates allocated {least:N0} bytes.");
    }

    [Fact]
    public void Open_AllocatesNoStoreArrays_UntilABatchWritesAField()
    {
        var path = Path.Combine(Path.GetTempPath(), "folio-store-buffers-" + Guid.NewGuid().ToString("N"));
        var schema = new IndexSchema().Add("Company", FieldKind.Exact).Add("Total", FieldKind.Double);
        try
        {
            using (SearchIndex.Open(StorageOptions.ForPath(path), schema))
            {
                // Created, and the code paths of an open warmed up.
            }

            var before = GC.GetAllocatedBytesForCurrentThread();
            using var reopened = SearchIndex.Open(StorageOptions.ForPath(path), schema);
            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

            // A set of store arrays is about 230 KB; held by every open index, 1,000 databases of three indexes held 700 MB.
            Assert.True(allocated < 100_000, $"Opening an index allocated {allocated:N0} bytes.");
        }
        finally
        {
            Directory.Delete(path, recursive: true);
        }
    }

    [Fact]
    public void Commit_BatchGrowingTheBuffers_LeavesTheIndexReadable()
    {
        using (var batch = _index.BeginBatch())
        {
            for (var i = Entries; i < Entries + 30_000; i++)
                batch.Add(new IndexEntry($"orders/{i}").Add("Company", "companies/big").Add("Total", i / 4.0).Add("Body", "order big"));
            batch.Commit();
        }
        using (var batch = _index.BeginBatch())
        {
            batch.Delete("orders/1");
            batch.Add(Entry(1, 7));
            batch.Commit();
        }

        using var searcher = _index.OpenSearcher();
        Assert.Equal(30_000, searcher.Count(new TermQuery("Company", FieldValue.From("companies/big"))));
        Assert.Equal(30_000, searcher.Count(new RangeQuery("Total", FieldValue.From(Entries / 4.0), true, FieldValue.From((Entries + 30_000) / 4.0), false)));
    }
}
