using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Platform.Zstd;
using Folio.Storage.Tests.Support;
using static Folio.Storage.Tests.Documents.DocumentCompressionTests;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// Documents format 7: a compressed body of one block stored without the frame's descriptor and the block's header,
/// which a read puts back; frames a read could not rebuild stay whole, and stores of format 6 open without a move.
/// </summary>
public class BareFrameTests
{
    [Fact]
    public void TryStrip_FrameOfOneCompressedBlock_RebuildsToTheSameBytes()
    {
        using var compressor = ZstdLibrary.Default.CreateCompressor(3, []);
        var body = Encoding.UTF8.GetBytes(Order(1) + Order(2));
        var frame = new byte[4096];
        Assert.True(compressor.TryCompress(body, frame, out var length));
        var whole = frame.AsSpan(0, length).ToArray();

        var bareLength = BareFrame.TryStrip(frame, length, out var stripped);

        Assert.True(stripped);
        Assert.Equal(length - BareFrame.SavedBytes, bareLength);
        var rebuilt = new byte[BareFrame.FrameLength(frame.AsSpan(0, bareLength))];
        BareFrame.Rebuild(frame.AsSpan(0, bareLength), rebuilt);
        Assert.Equal(whole, rebuilt);
    }

    [Fact]
    public void TryStrip_FrameOfSeveralBlocks_StaysWhole()
    {
        using var compressor = ZstdLibrary.Default.CreateCompressor(3, []);
        var random = new Random(7);
        var body = new byte[300 << 10];
        for (var i = 0; i < body.Length; i++)
            body[i] = (byte)('a' + random.Next(8));
        var frame = new byte[body.Length + 1024];
        Assert.True(compressor.TryCompress(body, frame, out var length));
        var whole = frame.AsSpan(0, length).ToArray();

        Assert.Equal(length, BareFrame.TryStrip(frame, length, out var stripped));

        Assert.False(stripped);
        Assert.Equal(whole, frame.AsSpan(0, length).ToArray());
    }

    [Theory]
    [InlineData(0x20, 2)]
    [InlineData(0, 0)]
    [InlineData(0, 1)]
    public void TryStrip_FrameADescriptorOrBlockTypeARebuildCannotMake_StaysWhole(byte descriptor, int blockType)
    {
        // A frame as the store never makes one (a content size, or a raw or repeated-byte block) must not lose what a
        // read could not put back.
        var frame = new byte[16];
        frame[0] = descriptor;
        var header = (frame.Length - 5) << 3 | blockType << 1 | 1;
        frame[2] = (byte)header;
        frame[3] = (byte)(header >> 8);
        frame[4] = (byte)(header >> 16);

        Assert.Equal(frame.Length, BareFrame.TryStrip(frame, frame.Length, out var stripped));
        Assert.False(stripped);
    }

    [Fact]
    public void Rebuild_BodyTooShortForADescriptorAndABlock_IsACorruption() =>
        Assert.Throws<CorruptionException>(() => BareFrame.Rebuild([0x40], new byte[8]));

    [Fact]
    public async Task Put_OrdersAndADocumentOverABlock_ReadBackExactly_AfterAReopenToo()
    {
        using var directory = new TempDirectory("bare-frames");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, string>();
        var large = "{\"Text\":\"" + string.Join(' ', Enumerable.Range(0, 40_000).Select(n => $"w{n * 7919 % 100_003}")) + "\"}";
        using (var store = DocumentStore.Open(options, QuickTraining))
        {
            for (var n = 0; n < 400; n++)
                expected[$"orders/{n}"] = Expected(Order(n), await store.PutAsync($"orders/{n}", Json(Order(n))));
            await store.Compression.WhenTrainingsDoneAsync();
            expected["orders/after"] = Expected(Order(1), await store.PutAsync("orders/after", Json(Order(1))));
            expected["texts/large"] = Expected(large, await store.PutAsync("texts/large", Json(large)));

            using var reader = store.OpenReader();
            Assert.True(reader.TryGet("orders/after", out var order));
            Assert.Equal(Document.CompressedBareFlags, order.BodyFlags);
            Assert.True(order.DictionaryVersion > 0);
            Assert.True(reader.TryGet("texts/large", out var text));
            Assert.True(text.IsCompressed);
            Assert.False(text.IsBare);
        }
        using var reopened = DocumentStore.Open(options, QuickTraining);
        foreach (var (id, json) in expected)
            AssertReadsBack(reopened, id, json);
    }

    [Fact]
    public async Task Open_Format6StoreOfWholeFrames_ReadsThemAsTheyAre_AndACompactionMakesThemBare()
    {
        using var directory = new TempDirectory("bare-from-6");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, string>();
        long bareBytes;
        int madeWhole;
        using (var store = DocumentStore.Open(options, QuickTraining))
        {
            for (var n = 0; n < 600; n++)
                expected[$"orders/{n}"] = Expected(Order(n), await store.PutAsync($"orders/{n}", Json(Order(n))));
            await store.Compression.WhenTrainingsDoneAsync();
            bareBytes = RecordLayout.StoredBytes(store);
            madeWhole = WriteAsFormat6(store);
            Assert.True(madeWhole > 500, $"{madeWhole} bare frames to make whole");
        }

        long wholeBytes;
        using (var opened = DocumentStore.Open(options, QuickTraining))
        {
            Assert.Equal(DocumentStore.DocumentsFormat, StoredFormat(opened));
            Assert.Equal(0, CountBare(opened));
            wholeBytes = RecordLayout.StoredBytes(opened);
            Assert.Equal(bareBytes + BareFrame.SavedBytes * madeWhole, wholeBytes);
            foreach (var (id, json) in expected)
                AssertReadsBack(opened, id, json);

            opened.Compact();

            Assert.True(CountBare(opened) >= madeWhole, "the compaction left frames whole");
            Assert.True(RecordLayout.StoredBytes(opened) <= bareBytes, $"{RecordLayout.StoredBytes(opened)} B after the compaction, {bareBytes} B as written bare");
            foreach (var (id, json) in expected)
                AssertReadsBack(opened, id, json);
        }
    }

    [Fact]
    public async Task Read_BareFlagOnABodyNotInTheBareForm_IsACorruption()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("orders/1", Json(Order(1)));
        var key = DocumentIds.Key("orders/1");
        using (var transaction = store.Environment.BeginWrite())
        {
            var docs = transaction.OpenTree(DocumentStore.DocsTree)!;
            Assert.True(docs.TryGet(key, out var value));
            var stored = new Document(key, value.ToArray(), store.CollectionNames);
            Assert.True(stored.IsBare);
            docs.Put(key, RecordLayout.With(store, stored, key, Document.BareFrameFlag | Document.CompressedPrefixFlag, stored.DictionaryVersion, stored.RawLength, stored.StoredBody));
            transaction.Commit();
        }
        using var reader = store.OpenReader();
        var e = Assert.Throws<CorruptionException>(() => reader.TryGet("orders/1", out _));
        Assert.Contains("bare", e.Message, StringComparison.Ordinal);
    }

    /// <summary>Rewrites every bare frame whole (format 6's form) and marks the store format 6; returns how many.</summary>
    private static int WriteAsFormat6(DocumentStore store)
    {
        using var transaction = store.Environment.BeginWrite();
        var docs = transaction.OpenTree(DocumentStore.DocsTree)!;
        var rewritten = new List<(byte[] Key, byte[] Record)>();
        var cursor = docs.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var key = cursor.Key.ToArray();
            var stored = new Document(key, cursor.Value, store.CollectionNames);
            if (stored.IsBare)
                rewritten.Add((key, RecordLayout.With(store, stored, key, RecordLayout.WholeForm(stored), stored.DictionaryVersion, stored.RawLength, RecordLayout.WholeFrame(stored))));
        }
        foreach (var (key, record) in rewritten)
            docs.Put(key, record);
        var format = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(format, 6);
        transaction.OpenTree(DocumentStore.MetaTree)!.Put("documents-format"u8, format);
        transaction.Commit();
        return rewritten.Count;
    }

    private static int CountBare(DocumentStore store)
    {
        using var transaction = store.Environment.BeginRead();
        var cursor = transaction.OpenTree(DocumentStore.DocsTree)!.CreateCursor();
        var bare = 0;
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            bare += new Document(cursor.Key, cursor.Value, store.CollectionNames).IsBare ? 1 : 0;
        return bare;
    }

    private static int StoredFormat(DocumentStore store)
    {
        using var transaction = store.Environment.BeginRead();
        Assert.True(transaction.OpenTree(DocumentStore.MetaTree)!.TryGet("documents-format"u8, out var value));
        return BinaryPrimitives.ReadInt32LittleEndian(value);
    }
}
