using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// The last-modified times batches share instead of each record holding its own (<see cref="Document"/>'s shared
/// time): a batch of <see cref="SharedFrom"/> or more documents keeps its time once in <see cref="TreeName"/>, under the
/// etag of its first document, and a record reads the time kept under the greatest etag not above its own. That saves 7
/// bytes a record (a search record after a stop takes 140 bytes); smaller batches hold their time inline, as an entry
/// costs about 23 bytes. An etag is never given twice once committed, so an entry never changes, and a batch rolled back
/// takes its entry with it.
/// <para>
/// Reads look the time up in memory: the entries of every commit up to <see cref="Snapshot.Watermark"/>, loaded at open
/// and added by each commit that keeps one, in commit order, just after it becomes visible. A record above the watermark
/// (read in that instant) or beyond <see cref="MemoryLimit"/> entries is looked up in its snapshot's tree instead.
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
        int low = 0, high = snapshot.Count - 1, found = -1;
        while (low <= high)
        {
            var mid = (low + high) >>> 1;
            if (snapshot.Keys[mid] <= etag)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        if (found < 0)
            return false;
        ticks = snapshot.Ticks[found];
        return true;
    }

    /// <summary>Replaces what is in memory with the entries of <paramref name="tree"/>, every commit up to <paramref name="lastEtag"/>.</summary>
    public void Load(Tree tree, long lastEtag)
    {
        var count = (int)Math.Min(tree.Count, MemoryLimit);
        var keys = new long[count];
        var ticks = new long[count];
        var loaded = 0;
        var watermark = lastEtag;
        var cursor = tree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var (key, value) = Read(cursor);
            if (loaded == count)
            {
                // Past the limit: memory covers the etags below the first entry left out.
                watermark = key - 1;
                break;
            }
            keys[loaded] = key;
            ticks[loaded] = value;
            loaded++;
        }
        lock (_lock)
            Volatile.Write(ref _snapshot, new Snapshot(keys, ticks, loaded, watermark));
    }

    /// <summary>
    /// Adds the entry a batch kept at <paramref name="etag"/> once its commit is visible; <paramref name="lastEtag"/>:
    /// the batch's last. Runs in commit order (<see cref="Transactions.ICommitListener"/>).
    /// </summary>
    public void Committed(long etag, long ticks, long lastEtag)
    {
        lock (_lock)
        {
            var current = _snapshot;
            if (current.Count >= MemoryLimit || current.Watermark >= etag)
                return;
            var keys = current.Keys;
            var times = current.Ticks;
            if (current.Count == keys.Length)
            {
                Array.Resize(ref keys, Math.Max(16, keys.Length * 2));
                Array.Resize(ref times, keys.Length);
            }
            // Readers of the current snapshot never read past its count, so the slot after it is free to fill.
            keys[current.Count] = etag;
            times[current.Count] = ticks;
            Volatile.Write(ref _snapshot, new Snapshot(keys, times, current.Count + 1, lastEtag));
        }
    }

    /// <summary>Keeps <paramref name="ticks"/> as the time of the batch whose first document has <paramref name="etag"/>.</summary>
    public static void Keep(Tree times, long etag, long ticks)
    {
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, etag);
        BinaryPrimitives.WriteInt64LittleEndian(times.Reserve(key, 8), ticks);
    }

    /// <summary>The ticks kept in <paramref name="tree"/> (a snapshot's) for the batch that wrote <paramref name="etag"/>.</summary>
    public static long Find(Tree? tree, long etag)
    {
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, etag);
        var cursor = tree?.CreateCursor();
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
