using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;

namespace Folio.Storage.Tests.Support;

/// <summary>Records laid out by hand in documents format 6's layout, for tests that store a body in a form the writer no longer makes.</summary>
internal static class RecordLayout
{
    /// <summary>
    /// A record of <paramref name="stored"/>'s etag, date, id and collection with this body. <paramref name="keyForId"/>:
    /// the key the id is compared with (an empty one makes the record carry the id, as records before format 3 did).
    /// </summary>
    public static byte[] With(DocumentStore store, Document stored, ReadOnlySpan<byte> keyForId, byte bodyFlags, int dictionaryVersion, int rawLength, ReadOnlySpan<byte> body)
    {
        var numbered = store.CollectionNames.NameOf(stored.CollectionNumber);
        var headerLength = Document.HeaderLength(stored.Etag, stored.HeldLastModified, keyForId, stored.Id, stored.CollectionNumber, stored.Collection, numbered, bodyFlags, dictionaryVersion, rawLength);
        var record = new byte[headerLength + body.Length];
        Document.WriteHeader(record, stored.Etag, stored.HeldLastModified, keyForId, stored.Id, stored.CollectionNumber, stored.Collection, numbered, bodyFlags, dictionaryVersion, rawLength);
        body.CopyTo(record.AsSpan(headerLength));
        return record;
    }

    /// <summary>A compressed body's whole frame, put back together when it is stored bare.</summary>
    public static byte[] WholeFrame(Document stored)
    {
        if (!stored.IsBare)
            return stored.StoredBody.ToArray();
        var frame = new byte[BareFrame.FrameLength(stored.StoredBody)];
        BareFrame.Rebuild(stored.StoredBody, frame);
        return frame;
    }

    /// <summary>A body's form without <see cref="Document.BareFrameFlag"/>: what the form of its whole frame is.</summary>
    public static byte WholeForm(Document stored) => (byte)(stored.BodyFlags & ~Document.BareFrameFlag);

    /// <summary>The header's length when it holds neither the id nor the collection's name.</summary>
    public static int MinimalHeader(Document stored) =>
        1 + Varint.Length((ulong)stored.Etag) + (stored.SharesTime ? 0 : 7) + Varint.Length(stored.CollectionNumber)
        + (stored.IsCompressed ? Varint.Length((ulong)stored.DictionaryVersion) + Varint.Length((ulong)stored.RawLength) : 0);

    /// <summary>The bytes of every record in the documents tree.</summary>
    public static long StoredBytes(DocumentStore store)
    {
        using var transaction = store.Environment.BeginRead();
        long total = 0;
        var cursor = transaction.OpenTree(DocumentStore.DocsTree)!.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            total += cursor.Value.Length;
        return total;
    }
}
