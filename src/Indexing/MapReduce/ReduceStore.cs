using System.Buffers.Binary;
using Folio.Indexing.Definitions;
using Folio.Storage;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// Where a map/reduce index keeps what its results are made from, in a storage environment of its own:
/// each document's map entries (to retract them when it changes or goes), each group's running aggregates,
/// the numbers of each group ordered for its smallest and largest, the result row of each group, and the
/// etag the last batch reached. Queries read the rows; the index's search engine holds the same rows
/// indexed, one entry per group keyed by the group key. An index with an output collection also keeps
/// the groups whose documents may not be written yet (<see cref="ReadPendingOutputs"/>): a batch marks
/// the groups it touched in its own transaction, the next one clears those written since.
/// </summary>
internal sealed class ReduceStore : IDisposable
{
    internal const string MetaTree = "meta";
    internal const string GroupIdsTree = "group-ids";
    internal const string GroupsTree = "groups";
    internal const string DocumentsTree = "documents";
    internal const string ExtremesTree = "extremes";
    internal const string RowsTree = "rows";
    internal const string PendingOutputTree = "output-pending";

    internal static ReadOnlySpan<byte> EtagKey => "etag"u8;
    internal static ReadOnlySpan<byte> NextGroupKey => "next-group"u8;
    internal static ReadOnlySpan<byte> NextEntryKey => "next-entry"u8;
    internal static ReadOnlySpan<byte> EntryCountKey => "entries"u8;
    internal static ReadOnlySpan<byte> OutputReadyKey => "output-ready"u8;

    private readonly StorageEnvironment _environment;

    public ReduceStore(StorageOptions options, ReduceDefinition reduce)
    {
        Reduce = reduce;
        _environment = StorageEnvironment.Open(options);
        try
        {
            using var tx = _environment.BeginWrite();
            tx.CreateTree(MetaTree);
            tx.CreateTree(GroupIdsTree);
            tx.CreateTree(GroupsTree);
            tx.CreateTree(DocumentsTree);
            tx.CreateTree(ExtremesTree);
            tx.CreateTree(RowsTree);
            tx.CreateTree(PendingOutputTree);
            tx.Commit();
        }
        catch
        {
            _environment.Dispose();
            throw;
        }
    }

    /// <summary>How the index groups and aggregates.</summary>
    public ReduceDefinition Reduce { get; }

    public Task Closed => _environment.Closed;

    /// <summary>Where the map entries and reduce results live.</summary>
    public StorageEnvironment Environment => _environment;

    public long SizeOnDisk => _environment.GetStats().DataFilePages * StorageLimits.PageSize;

    /// <summary>The etag the last committed batch reached.</summary>
    public long ReadEtag()
    {
        using var read = _environment.BeginRead();
        return ReadLong(read.OpenTree(MetaTree)!, EtagKey);
    }

    /// <summary>How many map entries and groups the last committed batch left.</summary>
    public (long Entries, long Groups) ReadCounts()
    {
        using var read = _environment.BeginRead();
        return (ReadLong(read.OpenTree(MetaTree)!, EntryCountKey), read.OpenTree(GroupsTree)!.Count);
    }

    /// <summary>
    /// Starts the write of one batch; it marks the groups it touches as owing their output document when
    /// <paramref name="marksOutput"/>, and clears the marks of <paramref name="written"/>, whose documents are written.
    /// </summary>
    public ReduceUpdate BeginUpdate(bool marksOutput = false, IReadOnlyList<string>? written = null) => new(_environment.BeginWrite(), Reduce, marksOutput, written);

    /// <summary>Whether the output collection was cleared of what was there before this index (done once, before its first batch).</summary>
    public bool ReadOutputReady()
    {
        using var read = _environment.BeginRead();
        return ReadLong(read.OpenTree(MetaTree)!, OutputReadyKey) == 1;
    }

    /// <summary>The groups whose output documents may not be written yet, with their current row (null: the group is gone, its document must go).</summary>
    public List<(string Key, byte[]? Row)> ReadPendingOutputs()
    {
        var pending = new List<(string Key, byte[]? Row)>();
        using var read = _environment.BeginRead();
        var rows = read.OpenTree(RowsTree)!;
        var cursor = read.OpenTree(PendingOutputTree)!.CreateCursor();
        if (!cursor.First())
            return pending;
        do
            pending.Add((System.Text.Encoding.UTF8.GetString(cursor.Key), rows.TryGet(cursor.Key, out var row) ? row.ToArray() : null));
        while (cursor.MoveNext());
        return pending;
    }

    /// <summary>Records that the output collection is ready and that the documents of <paramref name="written"/> are written.</summary>
    public void MarkOutputWritten(IReadOnlyList<string> written)
    {
        using var tx = _environment.BeginWrite();
        var pending = tx.OpenTree(PendingOutputTree)!;
        foreach (var key in written)
            pending.Delete(System.Text.Encoding.UTF8.GetBytes(key));
        WriteLong(tx.OpenTree(MetaTree)!, OutputReadyKey, 1);
        tx.Commit();
    }

    /// <summary>A snapshot of the rows, to read until disposed.</summary>
    public ReduceRows OpenRows() => new(_environment.BeginRead());

    /// <summary>Every row of the last committed batch, by group key (what rebuilds the search engine's entries).</summary>
    public void ForEachRow(Action<string, ReadOnlyMemory<byte>> row)
    {
        using var read = _environment.BeginRead();
        var cursor = read.OpenTree(RowsTree)!.CreateCursor();
        if (!cursor.First())
            return;
        do
            row(System.Text.Encoding.UTF8.GetString(cursor.Key), cursor.Value.ToArray());
        while (cursor.MoveNext());
    }

    public void Dispose() => _environment.Dispose();

    internal static long ReadLong(Folio.Storage.Trees.Tree tree, ReadOnlySpan<byte> key) =>
        tree.TryGet(key, out var value) ? BinaryPrimitives.ReadInt64LittleEndian(value) : 0;

    internal static void WriteLong(Folio.Storage.Trees.Tree tree, ReadOnlySpan<byte> key, long value) =>
        BinaryPrimitives.WriteInt64LittleEndian(tree.Reserve(key, 8), value);
}
