using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// The last-modified times batches share instead of each record holding its own (<see cref="Document"/>'s shared
/// time): a batch of <see cref="SharedFrom"/> or more documents keeps its time once in <see cref="TreeName"/>, under the
/// etag of its first document, and a record reads the time kept under the greatest etag not above its own. That saves 7
/// bytes a record (a million search records after a stop take 133.5 bytes each in the documents tree); smaller batches
/// hold their time inline, as an entry costs about 23 bytes (an 8-byte key and value, 7 of leaf entry and slot). An etag
/// is never given twice once committed, so an entry never changes, and a batch rolled back takes its entry with it.
/// <para>
/// Reads look the time up in memory: the newest entries of every commit up to <see cref="Snapshot.Watermark"/>, loaded at
/// open and added by each commit that keeps one, in commit order, just after it becomes visible and before it is announced.
/// A record above the watermark (read in that instant) or older than the entries in memory (past <see cref="MemoryLimit"/>)
/// is looked up in its snapshot's tree instead. A compaction first drops the entries no live record uses any more.
/// </para>
/// </summary>
internal sealed class WriteTimes
{
    /// <summary>The tree of shared times: an 8-byte big-endian etag, the time's 8-byte little-endian ticks.</summary>
    public const string TreeName = "write-times";

    /// <summary>The fewest documents a batch shares its time among.</summary>
    public const int SharedFrom = 4;

    /// <summary>Entries kept in memory at most (16 MB); a store of more small batches looks the rest up in its tree.</summary>
    private const int MemoryLimit = 1 << 20;

    private readonly Lock _lock = new();
    private Snapshot _snapshot = new([], [], 0, 0);

    /// <summary>
    /// The ticks of the batch that wrote <paramref name="etag"/>, when the entries in memory cover it; false when the
    /// caller must look in its snapshot's tree (<see cref="Find"/>).
    /// </summary>
    public bool TryFind(long etag, out long ticks)
    {
        var snapshot = Volatile.Read(ref _snapshot);
        ticks = 0;
        if (etag > snapshot.Watermark)
            return false;
        var found = Floor(snapshot.Keys, snapshot.Count, etag);
        if (found < 0)
            return false;
        ticks = snapshot.Ticks[found];
        return true;
    }

    /// <summary>
    /// Replaces what is in memory with the entries of <paramref name="tree"/>, every commit up to
    /// <paramref name="lastEtag"/>: the newest <see cref="MemoryLimit"/> of them, as recent documents are read most.
    /// </summary>
    public void Load(Tree tree, long lastEtag)
    {
        var count = (int)Math.Min(tree.Count, MemoryLimit);
        var keys = new long[count];
        var ticks = new long[count];
        var cursor = tree.CreateCursor();
        var at = count;
        for (var more = cursor.Last(); more && at > 0; more = cursor.MovePrevious())
        {
            at--;
            (keys[at], ticks[at]) = Read(cursor);
        }
        if (at > 0)
            throw new CorruptionException($"The tree of batches' times counts {tree.Count} entries but holds fewer.");
        lock (_lock)
            Volatile.Write(ref _snapshot, new Snapshot(keys, ticks, count, lastEtag));
    }

    /// <summary>
    /// Adds the entries a commit kept (etag and ticks, in etag order) once it is visible, before the commit is announced
    /// to indexes and subscriptions; <paramref name="lastEtag"/>: the commit's last. Runs in commit order.
    /// </summary>
    public void Committed(List<(long Etag, long Ticks)> entries, long lastEtag)
    {
        lock (_lock)
        {
            var current = _snapshot;
            // Never the case, since etags only grow; if it were, the watermark stays, and reads above it use the tree.
            if (entries[0].Etag <= current.Watermark)
                return;
            var keys = current.Keys;
            var times = current.Ticks;
            var count = current.Count;
            if (count + entries.Count > MemoryLimit)
            {
                // Keeps the newer half: an etag below the first entry kept is looked up in the tree.
                var kept = Math.Max(0, Math.Min(count, MemoryLimit / 2 - entries.Count));
                keys = keys[(count - kept)..count];
                times = times[(count - kept)..count];
                count = kept;
            }
            if (count + entries.Count > keys.Length)
            {
                var capacity = Math.Max(16, Math.Max(keys.Length * 2, count + entries.Count));
                Array.Resize(ref keys, capacity);
                Array.Resize(ref times, capacity);
            }
            // Readers of the current snapshot never read past its count, so the slots after it are free to fill.
            foreach (var (etag, ticks) in entries)
            {
                keys[count] = etag;
                times[count] = ticks;
                count++;
            }
            Volatile.Write(ref _snapshot, new Snapshot(keys, times, count, lastEtag));
        }
    }

    /// <summary>The index of the greatest of the first <paramref name="count"/> sorted keys not above <paramref name="etag"/>, or -1.</summary>
    public static int Floor(long[] keys, int count, long etag)
    {
        // Keys are distinct: a miss's complement is the index of the first key above.
        var at = Array.BinarySearch(keys, 0, count, etag);
        return at >= 0 ? at : ~at - 1;
    }

    /// <summary>Keeps <paramref name="ticks"/> as the time of the batch whose first document has <paramref name="etag"/>.</summary>
    public static void Keep(Tree times, long etag, long ticks)
    {
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, etag);
        BinaryPrimitives.WriteInt64LittleEndian(times.Reserve(key, 8), ticks);
    }

    /// <summary>The ticks kept for the batch that wrote <paramref name="etag"/>, found with a cursor over a snapshot's tree (null: the snapshot has none).</summary>
    public static long Find(TreeCursor? cursor, long etag)
    {
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, etag);
        if (cursor is null || !cursor.SeekLastAtOrBefore(key))
            throw new CorruptionException($"A document record of etag {etag} shares its batch's last-modified time, which the database does not hold.");
        return Read(cursor).Ticks;
    }

    private static (long Etag, long Ticks) Read(TreeCursor cursor)
    {
        var value = cursor.Value;
        if (cursor.Key.Length != 8 || value.Length != 8)
            throw new CorruptionException("A batch's kept last-modified time is damaged.");
        var etag = BinaryPrimitives.ReadInt64BigEndian(cursor.Key);
        var ticks = BinaryPrimitives.ReadInt64LittleEndian(value);
        if ((ulong)ticks > (ulong)DateTime.MaxValue.Ticks)
            throw new CorruptionException($"The last-modified time kept for the batch of etag {etag} is outside what a date can be ({ticks} ticks).");
        return (etag, ticks);
    }

    /// <summary>What readers see: the first <see cref="Count"/> entries, covering every commit up to <see cref="Watermark"/>.</summary>
    private sealed record Snapshot(long[] Keys, long[] Ticks, int Count, long Watermark);
}
