using System.Buffers.Binary;

namespace Folio.Storage.Documents;

public sealed partial class DocumentStore
{
    private const int DropBatch = 4096;

    /// <summary>
    /// Drops the batch times no live record uses any more (every document of the batch since rewritten or deleted), so
    /// that a store rewritten in batches does not keep an entry per batch for ever; a compaction runs it first. Entries
    /// are judged on one snapshot: no record is ever given an etag inside an older batch's range, so an entry unused there
    /// stays unused. Memory keeps the dropped entries until the store reopens: they can only be the floor of records that
    /// older snapshots still hold, whose time they are.
    /// </summary>
    /// <param name="cancellation">Stops the walk or the drop between transactions.</param>
    internal void DropUnusedWriteTimes(CancellationToken cancellation)
    {
        var unused = new List<long>();
        using (var read = Environment.BeginRead())
        {
            var tree = read.OpenTree(WriteTimes.TreeName);
            if (tree is null || tree.Count == 0)
                return;
            var keys = new long[tree.Count];
            var count = 0;
            var cursor = tree.CreateCursor();
            for (var more = cursor.First(); more && count < keys.Length; more = cursor.MoveNext())
                keys[count++] = BinaryPrimitives.ReadInt64BigEndian(cursor.Key);
            var used = new bool[count];
            var docs = read.OpenTree(DocsTree)!.CreateCursor();
            var walked = 0;
            for (var more = docs.First(); more; more = docs.MoveNext())
            {
                if (++walked % DropBatch == 0)
                    cancellation.ThrowIfCancellationRequested();
                var document = new Document(docs.Key, docs.Value, CollectionNames);
                if (document.SharesTime && WriteTimes.Floor(keys, count, document.Etag) is var at and >= 0)
                    used[at] = true;
            }
            for (var i = 0; i < count; i++)
            {
                if (!used[i])
                    unused.Add(keys[i]);
            }
        }
        // In transactions of a few thousand deletes, so that writes wait no longer on the drop than on a batch of theirs.
        Span<byte> key = stackalloc byte[8];
        for (var from = 0; from < unused.Count; from += DropBatch)
        {
            cancellation.ThrowIfCancellationRequested();
            using var write = Environment.BeginWrite();
            var times = write.OpenTree(WriteTimes.TreeName)!;
            for (var i = from; i < Math.Min(unused.Count, from + DropBatch); i++)
            {
                BinaryPrimitives.WriteInt64BigEndian(key, unused[i]);
                times.Delete(key);
            }
            write.Commit();
        }
    }
}
