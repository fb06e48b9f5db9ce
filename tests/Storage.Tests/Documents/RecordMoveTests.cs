using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// A store of documents format 5 or before is moved to format 6's record layout as it opens, in batches: every
/// document must read back exactly as it did (JSON, id, etag, date, collection) by every path, whatever its id's shape,
/// its collection's casing, its size or its body's form, and the records must come out smaller.
/// </summary>
public class RecordMoveTests
{
    [Fact]
    public async Task Open_Format5Store_MovesEveryRecordInBatchesAndEachReadsBackAsItWas()
    {
        using var directory = new TempDirectory("record-move");
        // A sixteenth of a 256 KB journal file a batch: the move takes many transactions.
        var options = StorageOptions.ForPath(directory.Path) with { JournalFileSize = 256 << 10 };
        Dictionary<string, Snapshot> before;
        long legacyBytes;
        using (var store = DocumentStore.Open(options, DocumentCompressionTests.QuickTraining))
        {
            await WriteEveryShapeAsync(store);
            before = Snapshot.All(store);
            // A third of the records carry an id their key holds, as formats 1 and 2 wrote them.
            Format5Records.Write(store, key => key.GetHashCode(StringComparison.Ordinal) % 3 == 0);
            legacyBytes = RecordLayout.StoredBytes(store);
            Assert.Equal(5, Format(store));
        }

        using var moved = DocumentStore.Open(options, DocumentCompressionTests.QuickTraining);
        Assert.Equal(DocumentStore.DocumentsFormat, Format(moved));
        using (var transaction = moved.Environment.BeginRead())
            Assert.False(transaction.OpenTree(DocumentStore.MetaTree)!.TryGet("records-moved-through"u8, out _));
        var after = Snapshot.All(moved);
        Assert.Equal(before.Keys.Order(), after.Keys.Order());
        foreach (var (id, expected) in before)
            Assert.Equal(expected, after[id]);
        using (var transaction = moved.Environment.BeginRead())
        {
            var cursor = transaction.OpenTree(DocumentStore.DocsTree)!.CreateCursor();
            int compressed = 0, bare = 0;
            for (var more = cursor.First(); more; more = cursor.MoveNext())
            {
                var document = new Document(cursor.Key, cursor.Value, moved.CollectionNames);
                var idHeld = document.Id.SequenceEqual(cursor.Key) ? 0 : 1 + document.Id.Length;
                var nameHeld = document.HoldsCollectionName ? 1 + document.Collection.Length : 0;
                Assert.Equal(RecordLayout.MinimalHeader(document) + idHeld + nameHeld, cursor.Value.Length - document.StoredBody.Length);
                compressed += document.IsCompressed ? 1 : 0;
                bare += document.IsBare ? 1 : 0;
                // The move makes every frame a read can rebuild bare, as the write path does since format 7.
                if (document.BodyFlags == Document.CompressedPrefixMagiclessFlag)
                {
                    var frame = document.StoredBody.ToArray();
                    BareFrame.TryStrip(frame, frame.Length, out var strippable);
                    Assert.False(strippable, $"{document.IdString} was moved with a whole frame that could be bare");
                }
            }
            Assert.True(bare > compressed / 2, $"{bare} bare frames of {compressed} compressed bodies");
        }
        var movedBytes = RecordLayout.StoredBytes(moved);
        Assert.True(movedBytes < legacyBytes - 15L * before.Count, $"records take {movedBytes} B after the move, {legacyBytes} B before");
        moved.Environment.Verify();

        // Writes after the move: a new casing, a replaced document, a deleted one.
        await moved.PutAsync("orders/1", DocumentCompressionTests.Json(DocumentCompressionTests.Order(1)));
        await moved.DeleteAsync("Orders/HiLo-2-A");
        await moved.PutAsync("x/1", DocumentCompressionTests.Json("""{"@metadata":{"@collection":"ORDERS"}}"""));
        using var reader = moved.OpenReader();
        Assert.Equal(before.Values.Count(s => s.Collection.Equals("orders", StringComparison.OrdinalIgnoreCase)), reader.CountInCollection("orders"));
        Assert.True(reader.TryGet("x/1", out var x));
        Assert.Equal("ORDERS", x.CollectionString);
    }

    [Fact]
    public async Task Open_Format5StoreWithADamagedRecord_FailsNamingItAndWritesNothing()
    {
        using var directory = new TempDirectory("record-move-damaged");
        var options = StorageOptions.ForPath(directory.Path);
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            for (var n = 0; n < 50; n++)
                await store.PutAsync($"orders/{n}", DocumentCompressionTests.Json(DocumentCompressionTests.Order(n)));
            Format5Records.Write(store);
        }
        var key = DocumentIds.Key("orders/27");
        byte[] good;
        using (var environment = StorageEnvironment.Open(options))
        {
            using var tx = environment.BeginWrite();
            var docs = tx.OpenTree(DocumentStore.DocsTree)!;
            Assert.True(docs.TryGet(key, out var value));
            good = value.ToArray();
            var damaged = good.ToArray();
            damaged[20] = 9;
            docs.Put(key, damaged);
            tx.Commit();
        }

        var e = Assert.Throws<CorruptionException>(() => DocumentStore.Open(options, DocumentCompressionOptions.Disabled));
        Assert.Contains("orders/27", e.Message, StringComparison.Ordinal);
        using (var environment = StorageEnvironment.Open(options))
        {
            using var tx = environment.BeginWrite();
            var meta = tx.OpenTree(DocumentStore.MetaTree)!;
            Assert.True(meta.TryGet("documents-format"u8, out var format));
            Assert.Equal(5, BinaryPrimitives.ReadInt32LittleEndian(format));
            Assert.False(meta.TryGet("records-moved-through"u8, out _));
            tx.OpenTree(DocumentStore.DocsTree)!.Put(key, good);
            tx.Commit();
        }
        using var repaired = DocumentStore.Open(options, DocumentCompressionOptions.Disabled);
        using var reader = repaired.OpenReader();
        Assert.True(reader.TryGet("orders/27", out var document));
        Assert.Equal("orders", document.CollectionString);
        Assert.Equal(50, reader.CountInCollection("orders"));
    }

    [Fact]
    public async Task Open_Format5Store_ReportsTheMoveFromItsStartToItsEnd_AndAStoreInTheCurrentFormatReportsNothing()
    {
        using var directory = new TempDirectory("record-move-progress");
        var options = StorageOptions.ForPath(directory.Path) with { JournalFileSize = 256 << 10 };
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            await WriteOrdersAsync(store, 2_000);
            Format5Records.Write(store);
        }

        var reports = new List<FormatMoveProgress>();
        using (DocumentStore.Open(options, DocumentCompressionOptions.Disabled, reports.Add))
        {
        }
        Assert.True(reports.Count >= 2, string.Join("; ", reports));
        Assert.Equal(new FormatMoveProgress(5, DocumentStore.DocumentsFormat, 0, 2_000, reports[0].Elapsed, Finished: false, Resumed: false), reports[0]);
        Assert.Equal(new FormatMoveProgress(5, DocumentStore.DocumentsFormat, 2_000, 2_000, reports[^1].Elapsed, Finished: true, Resumed: false), reports[^1]);
        for (var i = 1; i < reports.Count; i++)
        {
            Assert.True(reports[i].RecordsMoved >= reports[i - 1].RecordsMoved && reports[i].Elapsed >= reports[i - 1].Elapsed, string.Join("; ", reports));
            Assert.Equal(i == reports.Count - 1, reports[i].Finished);
        }

        reports.Clear();
        using (DocumentStore.Open(options, DocumentCompressionOptions.Disabled, reports.Add))
        {
        }
        Assert.Empty(reports);
    }

    [Fact]
    public void Open_NewStore_ReportsNoMove()
    {
        // Regression: a new store reads as format 1 before it is marked, and was reported as moved (0 records).
        using var directory = new TempDirectory("record-move-new");
        var reports = new List<FormatMoveProgress>();
        using (DocumentStore.Open(StorageOptions.ForPath(directory.Path), DocumentCompressionOptions.Disabled, reports.Add))
        {
        }
        using (DocumentStore.Open(StorageOptions.ForPath(directory.Path), DocumentCompressionOptions.Disabled, reports.Add))
        {
        }
        Assert.Empty(reports);
    }

    [Fact]
    public async Task Open_MoveInterruptedAfterItsOpeningTransaction_ResumesAndSaysSo()
    {
        using var directory = new TempDirectory("record-move-resume");
        var options = StorageOptions.ForPath(directory.Path) with { JournalFileSize = 256 << 10 };
        Dictionary<string, Snapshot> before;
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            await WriteOrdersAsync(store, 1_000);
            before = Snapshot.All(store);
            Format5Records.Write(store);
        }

        // The first report comes once the opening transaction has committed and before any batch: failing there
        // leaves the store marked in the current format with every record still in format 5's layout.
        var interrupted = Assert.Throws<InvalidOperationException>(() => DocumentStore.Open(options, DocumentCompressionOptions.Disabled, _ => throw new InvalidOperationException("stop")));
        Assert.Equal("stop", interrupted.Message);

        var reports = new List<FormatMoveProgress>();
        using var resumed = DocumentStore.Open(options, DocumentCompressionOptions.Disabled, reports.Add);
        Assert.Equal(new FormatMoveProgress(DocumentStore.DocumentsFormat, DocumentStore.DocumentsFormat, 0, 1_000, reports[0].Elapsed, Finished: false, Resumed: true), reports[0]);
        Assert.Equal(new FormatMoveProgress(DocumentStore.DocumentsFormat, DocumentStore.DocumentsFormat, 1_000, 1_000, reports[^1].Elapsed, Finished: true, Resumed: true), reports[^1]);
        var after = Snapshot.All(resumed);
        Assert.Equal(before.Keys.Order(), after.Keys.Order());
        foreach (var (id, expected) in before)
            Assert.Equal(expected, after[id]);
    }

    [Fact]
    public void LegacyRecord_Format5BytesLaidOutByHand_ReadsEveryField()
    {
        var ticks = new DateTime(2026, 11, 29, 6, 40, 1, DateTimeKind.Utc).AddTicks(1234567).Ticks;
        byte[] compressed =
        [
            5, 0, 0, 0, 0, 0, 0, 0, .. BitConverter.GetBytes(ticks), 0, 0, 6, 0, 3, 3, 2, 0,
            .. "Orders"u8, 0x2C, 0x01, 0, 0, 0xAA, 0xBB,
        ];
        var read = new LegacyRecord("orders/5"u8, compressed);
        Assert.Equal(5, read.Etag);
        Assert.Equal(ticks, read.LastModified.Ticks);
        Assert.Equal("orders/5"u8.ToArray(), read.Id.ToArray());
        Assert.Equal("Orders"u8.ToArray(), read.Collection.ToArray());
        Assert.Equal(Document.CompressedPrefixMagiclessFlag, read.BodyFlags);
        Assert.True(read.Compacted);
        Assert.Equal(2, read.DictionaryVersion);
        Assert.Equal(300, read.RawLength);
        Assert.Equal(new byte[] { 0xAA, 0xBB }, read.Body.ToArray());

        byte[] plain = [7, 1, 0, 0, 0, 0, 0, 0, .. BitConverter.GetBytes(ticks), 8, 0, 5, 0, 0, 0, 0, 0, .. "Users/Ab"u8, .. "Users"u8, .. "{}"u8];
        var inline = new LegacyRecord("users/ab"u8, plain);
        Assert.Equal(263, inline.Etag);
        Assert.Equal("Users/Ab"u8.ToArray(), inline.Id.ToArray());
        Assert.Equal("Users"u8.ToArray(), inline.Collection.ToArray());
        Assert.False(inline.Compacted);
        Assert.Equal(2, inline.RawLength);
        Assert.Equal("{}"u8.ToArray(), inline.Body.ToArray());

        for (var length = 0; length < 24 + 8 + 5; length++)
            Assert.Throws<CorruptionException>(() => new LegacyRecord("users/ab"u8, plain.AsSpan(0, length)).Etag);
    }

    /// <summary>Ids of every shape, a collection in two casings, plain and compressed bodies, a 10 MB body, an emptied collection.</summary>
    private static async Task WriteEveryShapeAsync(DocumentStore store)
    {
        for (var n = 0; n < 300; n++)
            await store.PutAsync($"orders/{n}", DocumentCompressionTests.Json(DocumentCompressionTests.Order(n)));
        await store.Compression.WhenTrainingsDoneAsync();
        var commands = new List<DocumentCommand>();
        for (var n = 300; n < 600; n++)
        {
            var id = (n % 4) switch
            {
                0 => $"orders/{n}",
                1 => $"Orders/HiLo-{n % 7}-A",
                2 => $"orders/{new Guid(n, 0, 0, new byte[8])}",
                _ => $"orders/ünï-日本-{n}",
            };
            var client = n % 5 == 0
                ? "{\"@metadata\":{\"@collection\":\"orders\"}," + DocumentCompressionTests.Order(n)[1..]
                : DocumentCompressionTests.Order(n);
            commands.Add(new DocumentCommand(DocumentCommandType.Put, id, DocumentCompressionTests.Json(client), null));
        }
        commands.Add(new DocumentCommand(DocumentCommandType.Put, "orders/", DocumentCompressionTests.Json(DocumentCompressionTests.Order(7)), null));
        await store.BatchAsync(commands);
        var large = new StringBuilder("{\"Blob\":\"");
        var random = new Random(10);
        while (large.Length < 10 << 20)
            large.Append((char)('a' + random.Next(26)));
        large.Append("\"}");
        await store.PutAsync("Files/Large", DocumentCompressionTests.Json(large.ToString()));
        await store.PutAsync("temps/1", DocumentCompressionTests.Json("""{"@metadata":{"@collection":"Temps"}}"""));
        await store.DeleteAsync("temps/1");
    }

    private static async Task WriteOrdersAsync(DocumentStore store, int count)
    {
        var commands = new List<DocumentCommand>(count);
        for (var n = 0; n < count; n++)
            commands.Add(new DocumentCommand(DocumentCommandType.Put, $"orders/{n}", DocumentCompressionTests.Json(DocumentCompressionTests.Order(n)), null));
        await store.BatchAsync(commands);
    }

    private static int Format(DocumentStore store)
    {
        using var transaction = store.Environment.BeginRead();
        Assert.True(transaction.OpenTree(DocumentStore.MetaTree)!.TryGet("documents-format"u8, out var value));
        return BinaryPrimitives.ReadInt32LittleEndian(value);
    }

    /// <summary>What every read gives of one document.</summary>
    private sealed record Snapshot(string Json, long Etag, DateTime LastModified, string Collection, string InEtagOrder, string InCollection)
    {
        public static Dictionary<string, Snapshot> All(DocumentStore store)
        {
            using var reader = store.OpenReader();
            var byEtag = Listing(reader.ByEtag());
            var result = new Dictionary<string, Snapshot>(StringComparer.Ordinal);
            foreach (var (id, position) in byEtag)
            {
                Assert.True(reader.TryGet(id, out var document), $"{id} is missing");
                var inCollection = Listing(reader.ByCollection(document.CollectionString));
                result[id] = new Snapshot(Encoding.UTF8.GetString(document.Json), document.Etag, document.LastModified, document.CollectionString, position, inCollection[id]);
            }
            return result;
        }

        private static Dictionary<string, string> Listing(DocumentCursor cursor)
        {
            var listed = new Dictionary<string, string>(StringComparer.Ordinal);
            var previous = "";
            while (cursor.MoveNext())
            {
                var document = cursor.Current;
                listed[document.IdString] = $"{previous} < {document.Etag}: {Encoding.UTF8.GetString(document.Json).GetHashCode(StringComparison.Ordinal)}";
                previous = document.IdString;
            }
            return listed;
        }
    }
}
