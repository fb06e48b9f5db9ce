using System.Buffers.Binary;
using Folio.Indexing.Engines;
using Folio.Storage;
using Folio.Storage.Transactions;

namespace Folio.Indexing.Search;

/// <summary>
/// An inverted index in a storage environment of its own. One writer at a time (<see cref="BeginBatch"/>),
/// any number of searchers (<see cref="OpenSearcher"/>), each on a snapshot that never shows half a batch.
/// <para>Per field it keeps: a terms tree (term → frequency and posting chunks) with a tree of its sealed
/// chunks (<see cref="PostingStore"/>), or for a numeric field
/// its points, field lengths (norms) for BM25, doc values for sorting and counting, for numeric fields a
/// dense column of sort keys, the exists/null marks and, for text fields, the term ids entry records use
/// (and, for an exact field's single value, a column of its term's id). Per entry: the record of its terms
/// (less what the columns hold), for full-text fields as tokens in order (so an update or delete can take
/// them back out, and a phrase is checked with one read per candidate), and the key → entry id map (<see cref="KeyStore"/>).
/// The record's layout is <see cref="EntryRecord"/>.</para>
/// <para>This is Folio's engine behind <see cref="IEngineIndex"/> (opened through <see cref="FolioSearchEngine"/>):
/// the processed etag a batch commits with lives in the index's environment, written in the batch's transaction.</para>
/// </summary>
public sealed class SearchIndex : IEngineIndex
{
    /// <summary>
    /// The on-disk format this build writes and reads. Version 2 added the numeric sort columns, which
    /// a version 1 index lacks (its numeric sorts would see every entry as missing); version 3 keeps a
    /// short posting list in its term's header, where version 2 headers hold only a count; version 4 keeps
    /// a numeric field's single value only in its sort column, not also in its doc values and entry
    /// record; version 5 entry records name fields by ordinal and text terms by id (<see cref="TermDictionary"/>),
    /// a full-text field's as its tokens in order; version 6 keeps numeric fields' values as points in blocks
    /// (<see cref="PointStore"/>) instead of a term per value, leaves an exact field's single term id out of the
    /// entry record (its id column holds it), keys the keys tree by length and key, with entry ids as varints, and
    /// keys entries by their ids' significant bytes (<see cref="EntryKey(long, Span{byte})"/>); version 7 entry records
    /// name their fields and flags by a shared shape (<see cref="EntryShapes"/>); version 8 writes a full-text
    /// field's tokens as a bit stream; version 10 keeps entry records in blocks of
    /// consecutive ids keyed by their first id (<see cref="EntryStore"/>) and the entry count in the meta tree
    /// (version 9, never released, keyed the blocks by id / 16); version 11 keeps the keys tree in front-coded
    /// blocks of keys (<see cref="KeyStore"/>); version 12 keeps an exact field's term-id column in blocks of 512
    /// entries instead of 2,048 (<see cref="NumericColumn.TermIdBlockSize"/>); version 13 front-codes the keys in
    /// entry blocks (<see cref="EntryStore"/>); version 15 bit-packs a full-text field's lengths
    /// (<see cref="NormsColumn"/>; version 14, never released, padded its blocks by two bytes instead of three);
    /// version 16 writes token ids with a class of their bit length; version 17 writes
    /// a front-coded key's two lengths in one byte when they are small (<see cref="FrontCoding"/>); version 18 seals
    /// full posting chunks into a tree of their own (<see cref="PostingStore"/>); version 19 keeps sort keys in blocks
    /// of 4,096 entries (<see cref="NumericColumn.BlockSize"/>); version 20 writes point blocks as bit streams
    /// (<see cref="PointBlock"/>); version 21 remembers how a case-folding exact field's values were spelled
    /// (<see cref="SpellingVariant"/>); version 22 keeps a numeric field's recent points in runs until they are merged
    /// into its main blocks (<see cref="PointRuns"/>); version 23 leaves a deleted entry's ids in full-text postings until a
    /// sweep takes them out, keeping them meanwhile as dead entries that readers skip (<see cref="DeadEntries"/>); version 24
    /// keeps a full-text field's positions per posting list (<see cref="PositionLists"/>, <see cref="PositionsTree"/>)
    /// instead of its tokens in each entry record, and no term ids for it; version 25 starts each list of positions with
    /// where each block of 128 ids starts in it, so a phrase decodes one block. Older indexes are refused like newer ones
    /// and are rebuilt.
    /// </summary>
    public const int FormatVersion = 25;

    /// <summary>The oldest format this build opens (the current one: older ones lack what it holds).</summary>
    public const int OldestOpenedFormatVersion = 25;

    /// <summary>The longest entry key, in UTF-8 bytes: a tree key's limit less the two bytes of its length (<see cref="KeyStore.TreeKey"/>).</summary>
    public const int MaxKeyBytes = Folio.Storage.StorageLimits.MaxKeySize - 2;

    internal const string EntriesTree = "entries";
    internal const string KeysTree = "keys";
    internal const string MetaTree = "meta";

    /// <summary>The shapes entry records name by id (<see cref="EntryShapes"/>).</summary>
    internal const string ShapesTree = "shapes";
    internal static readonly byte[] FormatKey = "format"u8.ToArray();

    /// <summary>
    /// The tree of the indexer's own state, committed with the batches (<see cref="IndexBatch.Commit(long)"/>): the
    /// tree and key document indexes have kept their processed etag under, so indexes written before read theirs.
    /// </summary>
    internal const string StateTree = "indexing-state";

    /// <summary>The key of the processed etag in <see cref="StateTree"/>.</summary>
    internal static readonly byte[] ProcessedEtagKey = "processed-etag"u8.ToArray();
    internal static readonly byte[] NextEntryKey = "next-entry"u8.ToArray();

    /// <summary>The meta key of the number of entries (the entries tree has a value per block of them).</summary>
    internal static readonly byte[] EntryCountKey = "entry-count"u8.ToArray();

    /// <summary>A count kept in the meta tree under <paramref name="key"/> (0 before the first batch wrote it).</summary>
    internal static long ReadInt64(Folio.Storage.Trees.Tree meta, byte[] key) =>
        meta.TryGet(key, out var stored) ? BinaryPrimitives.ReadInt64LittleEndian(stored) : 0;

    private readonly bool _ownsEnvironment;
    // The dead entries as last read, shared by searchers of the same version of them.
    private DeadSet _dead = DeadSet.Empty;
    private readonly Stack<SearchScratch> _scratch = new();
    // Used by one batch at a time: a batch rents and returns logs while it holds the write transaction.
    private readonly Stack<PendingPostings> _pending = new();
    private readonly Stack<PendingPoints> _pendingPoints = new();
    private const int MaxPooledLogs = 64;

    private SearchIndex(StorageEnvironment environment, IndexSchema schema, bool ownsEnvironment)
    {
        Environment = environment;
        Schema = schema;
        _ownsEnvironment = ownsEnvironment;
        using var tx = environment.BeginWrite();
        var meta = tx.CreateTree(MetaTree);
        if (meta.TryGet(FormatKey, out var stored))
        {
            var version = BinaryPrimitives.ReadInt32LittleEndian(stored);
            if (version > FormatVersion)
                throw new UnsupportedFormatException($"This index was written in format version {version}; this build reads up to {FormatVersion}. Rebuild the index or upgrade Folio.");
            if (version < OldestOpenedFormatVersion)
                throw new UnsupportedFormatException($"This index was written in format version {version}, which this build no longer reads (it reads {OldestOpenedFormatVersion} to {FormatVersion}). Rebuild the index.");
            Shapes.Load(tx.OpenTree(ShapesTree)!);
            tx.Rollback();
            return;
        }
        BinaryPrimitives.WriteInt32LittleEndian(meta.Reserve(FormatKey, 4), FormatVersion);
        tx.CreateTree(EntriesTree);
        tx.CreateTree(KeysTree);
        tx.CreateTree(ShapesTree);
        tx.Commit();
    }

    /// <summary>The dead entries as of <paramref name="transaction"/> (<see cref="DeadEntries"/>), read once per version of them.</summary>
    internal DeadSet DeadAt(ReadTransaction transaction, Folio.Storage.Trees.Tree meta)
    {
        var cached = Volatile.Read(ref _dead);
        var read = DeadEntries.Read(transaction, meta, cached);
        if (!ReferenceEquals(read, cached))
            Volatile.Write(ref _dead, read);
        return read;
    }

    /// <summary>The committed entry shapes, shared by batches and searchers.</summary>
    internal EntryShapes Shapes { get; } = new();

    /// <summary>The environment holding the index (also open to the caller's own state, written in the same batches).</summary>
    public StorageEnvironment Environment { get; }

    /// <inheritdoc/>
    public IReadOnlyList<StorageEnvironment> StorageEnvironments => [Environment];

    /// <summary>The index's fields.</summary>
    public IndexSchema Schema { get; }

    /// <summary>Opens (or creates) the index stored under <paramref name="options"/>.</summary>
    public static SearchIndex Open(StorageOptions options, IndexSchema schema)
    {
        var environment = StorageEnvironment.Open(options);
        try
        {
            return new SearchIndex(environment, schema, ownsEnvironment: true);
        }
        catch
        {
            environment.Dispose();
            throw;
        }
    }

    /// <summary>Deletes an index's files (it must not be open).</summary>
    public static void Drop(string path)
    {
        if (Directory.Exists(path))
            Directory.Delete(path, recursive: true);
    }

    /// <inheritdoc/>
    public Task Closed => Environment.Closed;

    /// <inheritdoc/>
    public long SizeOnDisk => Environment.GetStats().DataFilePages * StorageLimits.PageSize;

    /// <inheritdoc/>
    public long ReadProcessedEtag()
    {
        using var read = Environment.BeginRead();
        var state = read.OpenTree(StateTree);
        return state is not null && state.TryGet(ProcessedEtagKey, out var etag) ? BinaryPrimitives.ReadInt64LittleEndian(etag) : 0;
    }

    /// <summary>Starts a batch of adds, updates and deletes that commits as one transaction.</summary>
    public IndexBatch BeginBatch() => new(this, Environment.BeginWrite());

    /// <summary>Opens a searcher on the last committed batch.</summary>
    public IndexSearcher OpenSearcher() => new(this, Environment.BeginRead());

    IEngineBatch IEngineIndex.BeginBatch() => BeginBatch();

    IEngineSearcher IEngineIndex.OpenSearcher() => OpenSearcher();

    /// <summary>An empty posting-change log for a batch's field, one a finished batch gave back when there is one.</summary>
    internal PendingPostings RentPending() => _pending.Count > 0 ? _pending.Pop() : new PendingPostings();

    /// <summary>Takes back a batch's log, emptied (and shrunk after a very large batch); keeps a few.</summary>
    internal void ReturnPending(PendingPostings log)
    {
        log.Release();
        if (_pending.Count < MaxPooledLogs)
            _pending.Push(log);
    }

    /// <summary>An empty point-change log for a batch's numeric field, one a finished batch gave back when there is one.</summary>
    internal PendingPoints RentPoints() => _pendingPoints.Count > 0 ? _pendingPoints.Pop() : new PendingPoints();

    /// <summary>Takes back a batch's point log, emptied; keeps a few.</summary>
    internal void ReturnPoints(PendingPoints log)
    {
        log.Release();
        if (_pendingPoints.Count < MaxPooledLogs)
            _pendingPoints.Push(log);
    }

    /// <summary>The spellings this index's searchers looked up, shared by those on the same snapshot.</summary>
    internal SpellingCache Spellings { get; } = new();

    /// <summary>The values term ids stand for, as term facets have read them.</summary>
    internal OrdinalTermCache OrdinalTerms { get; } = new();

    /// <summary>Buffers for a new searcher: ones an ended searcher gave back, else new ones.</summary>
    internal SearchScratch RentScratch()
    {
        lock (_scratch)
        {
            if (_scratch.Count > 0)
                return _scratch.Pop();
        }
        return new SearchScratch();
    }

    /// <summary>Takes back an ended searcher's buffers; keeps a few per core (more are concurrent queries' peaks).</summary>
    internal void ReturnScratch(SearchScratch scratch)
    {
        scratch.ReturnAll();
        lock (_scratch)
        {
            if (_scratch.Count < System.Environment.ProcessorCount * 4)
                _scratch.Push(scratch);
        }
    }

    /// <summary>Closes the index (and its environment, when the index opened it).</summary>
    public void Dispose()
    {
        if (_ownsEnvironment)
            Environment.Dispose();
    }

    internal static string TermsTree(string field) => "t:" + field;

    /// <summary>A field's sealed posting chunks, by sequence number (<see cref="PostingStore"/>).</summary>
    internal static string SealedTree(string field) => "s:" + field;

    internal static string MarksTree(string field) => "x:" + field;

    /// <summary>A full-text field's positions, under the keys of its posting lists in the terms tree (<see cref="PositionLists"/>).</summary>
    internal static string PositionsTree(string field) => "q:" + field;

    /// <summary>A full-text field's positions of sealed chunks, by the chunks' sequence numbers (<see cref="PositionTrees"/>).</summary>
    internal static string SealedPositionsTree(string field) => "u:" + field;

    internal static string NormsTree(string field) => "n:" + field;

    internal static string ValuesTree(string field) => "v:" + field;

    internal static string ColumnTree(string field) => "c:" + field;

    /// <summary>A numeric field's points (<see cref="PointStore"/>).</summary>
    internal static string PointsTree(string field) => "p:" + field;

    /// <summary>A numeric field's runs of recent points, not yet merged into its main ones (<see cref="PointRuns"/>).</summary>
    internal static string PointRunsTree(string field) => "r:" + field;

    /// <summary>A field's term → id tree (<see cref="TermDictionary"/>).</summary>
    internal static string TermIdsTree(string field) => "d:" + field;

    /// <summary>A field's id → term tree (<see cref="TermDictionary"/>).</summary>
    internal static string IdTermsTree(string field) => "i:" + field;

    /// <summary>An exact field's column of term ids, one per entry whose one value is its one term (instead of a doc value).</summary>
    internal static string IdColumnTree(string field) => "o:" + field;

    internal static byte[] NextTermIdKey(string field) => System.Text.Encoding.UTF8.GetBytes("next-term:" + field);

    /// <summary>The meta key of a field's ordinal, the number entry records name it by.</summary>
    internal static byte[] FieldOrdinalKey(string field) => System.Text.Encoding.UTF8.GetBytes("field:" + field);

    /// <summary>The meta key of the field with an ordinal.</summary>
    internal static byte[] FieldNameKey(int ordinal) => System.Text.Encoding.UTF8.GetBytes("field#" + ordinal.ToString(System.Globalization.CultureInfo.InvariantCulture));

    internal static readonly byte[] NextFieldKey = "next-field"u8.ToArray();

    internal static byte[] FieldStatsKey(string field) => System.Text.Encoding.UTF8.GetBytes("stats:" + field);

    /// <summary>The term that marks entries having a field (null or not).</summary>
    internal static readonly byte[] ExistsTerm = "e"u8.ToArray();

    /// <summary>The term that marks entries whose field is an explicit null.</summary>
    internal static readonly byte[] NullTerm = "n"u8.ToArray();

    /// <summary>The most bytes an entry key takes.</summary>
    internal const int MaxEntryKeySize = 9;

    /// <summary>
    /// Writes the key of an entry in the entries and doc-value trees into <paramref name="key"/> (at least
    /// <see cref="MaxEntryKeySize"/> bytes; lookups per hit build it without allocating): how many bytes the id
    /// takes (1–8), then the id in those bytes, big-endian. Keys sort like the ids, and below 16.7M entries one
    /// takes 4 bytes instead of 8.
    /// </summary>
    internal static ReadOnlySpan<byte> EntryKey(long entryId, Span<byte> key)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(entryId);
        var length = Math.Max(1, (71 - System.Numerics.BitOperations.LeadingZeroCount((ulong)entryId)) / 8);
        key[0] = (byte)length;
        for (var i = length; i > 0; i--)
        {
            key[i] = (byte)entryId;
            entryId >>= 8;
        }
        return key[..(length + 1)];
    }

    /// <summary>The entry id an entry key (<see cref="EntryKey(long, Span{byte})"/>) names.</summary>
    internal static long EntryIdOf(ReadOnlySpan<byte> key)
    {
        if (key.Length < 2 || key.Length > MaxEntryKeySize || key[0] != key.Length - 1)
            throw new Folio.Storage.CorruptionException($"An entry key of {key.Length} bytes does not hold an entry id.");
        long id = 0;
        foreach (var b in key[1..])
            id = (id << 8) | b;
        return id;
    }
}
