using System.Buffers.Binary;
using Folio.Storage.Documents;
using Folio.Storage.Transactions;

namespace Folio.Storage.Tests.Support;

/// <summary>
/// Lays a store's records out as documents formats 1-5 kept them, for the tests and the benchmark of the move to
/// format 6's layout: a 24-byte header (etag, ticks, inline id and collection lengths, body flags, record flags, the
/// dictionary version), the inline id, the collection's name, a compressed body's 4-byte length, the body; and the
/// collection numbers without their names, as format 5 kept them.
/// </summary>
internal static class Format5Records
{
    /// <summary>
    /// Rewrites every record and number in <paramref name="tx"/> and marks the store format 5. The documents tree is
    /// built anew in key order, so its leaves are as full as a format 5 build's sequential writes left them.
    /// </summary>
    /// <param name="store">The store.</param>
    /// <param name="tx">The transaction.</param>
    /// <param name="carriesId">Keys whose record carries its id although the key holds it, as formats 1 and 2 wrote every record.</param>
    public static void Write(DocumentStore store, WriteTransaction tx, Predicate<string>? carriesId = null)
    {
        var relaid = new List<(byte[] Key, byte[] Record)>();
        var cursor = tx.OpenTree(DocumentStore.DocsTree)!.CreateCursor();
        // Times the records share are read from the last commit, which holds them all.
        using var times = store.OpenReader();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            relaid.Add((cursor.Key.ToArray(), Legacy(cursor.Key, new Document(cursor.Key, cursor.Value, store.CollectionNames, times), carriesId?.Invoke(System.Text.Encoding.UTF8.GetString(cursor.Key)) ?? false)));
        tx.DeleteTree(DocumentStore.DocsTree);
        var docs = tx.CreateTree(DocumentStore.DocsTree);
        foreach (var (key, record) in relaid)
            docs.Put(key, record);

        var numbers = tx.OpenTree(CollectionNumbers.Tree)!;
        var named = new List<(byte[] Key, byte[] Number)>();
        var numberCursor = numbers.CreateCursor();
        for (var more = numberCursor.First(); more; more = numberCursor.MoveNext())
            named.Add((numberCursor.Key.ToArray(), numberCursor.Value[..4].ToArray()));
        foreach (var (key, number) in named)
            numbers.Put(key, number);

        var format = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(format, 5);
        tx.OpenTree(DocumentStore.MetaTree)!.Put("documents-format"u8, format);
    }

    /// <summary>Rewrites every record and number of the store and marks it format 5.</summary>
    public static void Write(DocumentStore store, Predicate<string>? carriesId = null)
    {
        using var tx = store.Environment.BeginWrite();
        Write(store, tx, carriesId);
        tx.Commit();
    }

    /// <summary>The record in the layout of formats 1-5, the id left to the key when it is the same bytes.</summary>
    public static byte[] Legacy(ReadOnlySpan<byte> key, Document stored, bool idInline = false)
    {
        var id = idInline || !stored.Id.SequenceEqual(key) ? stored.Id : default;
        var collection = stored.Collection;
        var lengthBytes = stored.IsCompressed ? 4 : 0;
        var frame = RecordLayout.WholeFrame(stored);
        var record = new byte[24 + id.Length + collection.Length + lengthBytes + frame.Length];
        BinaryPrimitives.WriteInt64LittleEndian(record, stored.Etag);
        BinaryPrimitives.WriteInt64LittleEndian(record.AsSpan(8), stored.LastModified.Ticks);
        BinaryPrimitives.WriteUInt16LittleEndian(record.AsSpan(16), (ushort)id.Length);
        BinaryPrimitives.WriteUInt16LittleEndian(record.AsSpan(18), (ushort)collection.Length);
        record[20] = RecordLayout.WholeForm(stored);
        record[21] = (byte)((id.IsEmpty ? 1 : 0) | (stored.IsCompacted ? 2 : 0));
        BinaryPrimitives.WriteUInt16LittleEndian(record.AsSpan(22), (ushort)stored.DictionaryVersion);
        id.CopyTo(record.AsSpan(24));
        collection.CopyTo(record.AsSpan(24 + id.Length));
        var body = 24 + id.Length + collection.Length;
        if (stored.IsCompressed)
            BinaryPrimitives.WriteInt32LittleEndian(record.AsSpan(body), stored.RawLength);
        frame.CopyTo(record.AsSpan(body + lengthBytes));
        return record;
    }
}
