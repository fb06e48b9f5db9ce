using System.Globalization;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Reporting;
using Folio.Storage.Tests.Documents;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Trees;

public class LeafFillTests
{
    /// <summary>The ids a client would write for <paramref name="shape"/>, in the order it would write them.</summary>
    private static string Id(string shape, int n, Random random) => shape switch
    {
        "sequential" => "orders/" + n.ToString(CultureInfo.InvariantCulture),
        // Four HiLo clients each take ranges of 32 and write in turn.
        "hilo" => "orders/" + (((n - 1) / 4 / 32 * 4 + (n - 1) % 4) * 32 + (n - 1) / 4 % 32 + 1).ToString(CultureInfo.InvariantCulture) + "-A",
        "guid" => "orders/" + new Guid(random.Next(), (short)random.Next(), (short)random.Next(), (byte)random.Next(), 2, 3, 4, 5, 6, 7, 8),
        _ => "orders/",
    };

    // Before leaves passed entries to their siblings, orders/1 … orders/N left the docs tree's leaves 56-65% full
    // (a run of new keys lands between older ones: orders/12340 … 12349 before orders/1235) and GUIDs 60-67%.
    [Theory]
    [InlineData("sequential", 0.88)]
    [InlineData("server", 0.88)]
    [InlineData("hilo", 0.78)]
    [InlineData("guid", 0.74)]
    public async Task BatchAsync_EachIdShape_KeepsTheDocsLeavesFull(string shape, double minimumFill)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), DocumentCompressionOptions.Disabled);
        var random = new Random(5);
        var commands = new List<DocumentCommand>();
        var ids = new List<string>();
        for (var n = 1; n <= 20_000; n++)
        {
            commands.Add(new DocumentCommand(DocumentCommandType.Put, Id(shape, n, random), DocumentCompressionTests.Json(DocumentCompressionTests.Order(n)), null));
            if (commands.Count < 500)
                continue;
            foreach (var result in await store.BatchAsync(commands))
                ids.Add(result!.Id);
            commands.Clear();
        }

        store.Environment.Verify();
        TreeSpace? docs = null;
        foreach (var tree in store.Environment.ReportSpace().Trees)
        {
            if (tree.Name == DocumentStore.DocsTree)
                docs = tree;
        }
        Assert.NotNull(docs);
        Assert.Equal(20_000, docs.Entries);
        Assert.True(docs.LeafFill >= minimumFill, $"{shape}: the docs tree's leaves are {docs.LeafFill:P1} full");
        using var reader = store.OpenReader();
        foreach (var id in ids)
            Assert.True(reader.TryGet(id, out _), $"{id} is missing");
    }

    [Theory]
    [InlineData(11)]
    [InlineData(12)]
    public void PutAndDelete_RandomKeysOverManyTransactions_MatchTheModelAndVerify(int seed)
    {
        // Random keys with values from a few bytes to past the inline limit: full leaves pass entries to
        // siblings of every fill, separators change length, and updates grow and shrink entries in place.
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        var random = new Random(seed);
        var model = new SortedDictionary<string, int>(StringComparer.Ordinal);
        for (var batch = 0; batch < 40; batch++)
        {
            using (var tx = env.BeginWrite())
            {
                var tree = tx.OpenTree("t") ?? tx.CreateTree("t");
                for (var op = 0; op < 400; op++)
                {
                    var key = "k" + random.Next(6_000).ToString(CultureInfo.InvariantCulture) + new string('x', random.Next(0, 120));
                    if (random.Next(5) == 0 && model.Count > 0)
                    {
                        Assert.Equal(model.Remove(key), tree.Delete(Keys.Of(key)));
                        continue;
                    }
                    var size = random.Next(8) == 0 ? random.Next(2_000, 3_000) : random.Next(1, 700);
                    tree.Put(Keys.Of(key), Keys.Value(key.Length * 31 + size, size));
                    model[key] = size;
                }
                tx.Commit();
            }
            env.Verify();
        }

        using var read = env.BeginRead();
        var cursor = read.OpenTree("t")!.CreateCursor();
        var more = cursor.First();
        foreach (var (key, size) in model)
        {
            Assert.True(more);
            Assert.Equal(key, Keys.Text(cursor.Key));
            Assert.True(cursor.Value.SequenceEqual(Keys.Value(key.Length * 31 + size, size)), key);
            more = cursor.MoveNext();
        }
        Assert.False(more);
    }
}
