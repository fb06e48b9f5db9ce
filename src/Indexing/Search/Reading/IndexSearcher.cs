using System.Buffers.Binary;
using System.Text;
using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// Runs queries on one snapshot of an index (a read transaction): it never sees half a batch, and
/// what it returns stays consistent however many batches commit meanwhile. Dispose it to let go of
/// the snapshot. Folio's engine behind <see cref="IEngineSearcher"/>: entry ids are the index's own, the
/// same in every snapshot that holds the entry.
/// </summary>
public sealed partial class IndexSearcher : IEngineSearcher
{
    private readonly SearchIndex _index;
    private readonly ReadTransaction _transaction;
    private readonly Tree _entries;
    private readonly Tree _meta;
    // Positioned afresh by every entry lookup (keys of hits).
    private TreeCursor? _entryCursor;
    // The key of a hit, read from its entry block (front-coded against the keys before it there).
    private byte[]? _keyBuffer;
    private readonly Dictionary<string, FieldReader> _fields = new(StringComparer.Ordinal);
    private readonly SearchScratch _scratch;
    private bool _disposed;

    internal IndexSearcher(SearchIndex index, ReadTransaction transaction)
    {
        _index = index;
        _transaction = transaction;
        _entries = transaction.OpenTree(SearchIndex.EntriesTree)!;
        _meta = transaction.OpenTree(SearchIndex.MetaTree)!;
        NextEntryId = SearchIndex.ReadInt64(_meta, SearchIndex.NextEntryKey);
        EntryCount = SearchIndex.ReadInt64(_meta, SearchIndex.EntryCountKey);
        _scratch = index.RentScratch();
    }

    /// <summary>The buffers this searcher's iterators borrow.</summary>
    internal SearchScratch Scratch => _scratch;

    /// <summary>The number of entries.</summary>
    public long EntryCount { get; }

    /// <inheritdoc/>
    public QueryGuard Guard { get; set; } = QueryGuard.None;

    // Walks check for cancellation when their count of entries or terms has these low bits clear.
    private const int CancellationStride = MatchWalk.CancellationStride;

    /// <summary>One past the highest entry id ever assigned (the size bit sets over entries need).</summary>
    public long NextEntryId { get; }

    /// <summary>The snapshot's read transaction (for state the caller keeps in the same environment).</summary>
    public ReadTransaction Transaction => _transaction;

    /// <inheritdoc/>
    public DocIdIterator Iterate(Query query) => query.Accept<DocIdIterator>(this);

    /// <inheritdoc/>
    public long Count(Query query)
    {
        var matches = Iterate(query);
        long count = 0;
        while (matches.MoveNext())
        {
            if ((++count & CancellationStride) == 0)
                Guard.Check();
        }
        return count;
    }

    /// <inheritdoc/>
    public TopDocs Search(Query query, int skip, int take, IReadOnlyList<SortField>? sort = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(skip);
        ArgumentOutOfRangeException.ThrowIfNegative(take);
        var matches = Iterate(query);
        if (sort is null || sort.Count == 0)
            return MatchWalk.FirstInIdOrder(this, matches, skip, take);
        return new TopDocsCollector(this, sort, skip, take) { Guard = Guard }.Walk(matches);
    }

    /// <inheritdoc/>
    public ITopDocsCollector CreateTopDocsCollector(int skip, int take, IReadOnlyList<SortField>? sort = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(skip);
        ArgumentOutOfRangeException.ThrowIfNegative(take);
        return new TopDocsCollector(this, sort ?? [], skip, take);
    }

    /// <inheritdoc/>
    /// <remarks>
    /// A top-K collector of this searcher's own, collected alone, walks the matches itself (its numeric-column
    /// and score-window paths need the iterator, not batches of ids); everything else gets batches of
    /// <see cref="MatchWalk.BatchSize"/> ids.
    /// </remarks>
    public void Collect(Query query, ICollector collector)
    {
        ArgumentNullException.ThrowIfNull(collector);
        var matches = Iterate(query);
        if (collector is TopDocsCollector top && top.Searcher == this)
        {
            top.Guard = Guard;
            top.Walk(matches);
            return;
        }
        MatchWalk.InBatches(this, matches, collector);
    }

    private TreeCursor EntryCursor => _entryCursor ??= _entries.CreateCursor();

    /// <inheritdoc/>
    public string GetKey(long entryId)
    {
        Span<byte> entryKey = stackalloc byte[SearchIndex.MaxEntryKeySize];
        var key = _keyBuffer ??= new byte[SearchIndex.MaxKeyBytes];
        if (!EntryStore.TryGetKey(EntryCursor, entryId, entryKey, key, out var length))
            throw new Folio.Storage.CorruptionException($"Index entry {entryId} has no record.");
        return Encoding.UTF8.GetString(key, 0, length);
    }

    /// <summary>The totals of a full-text field.</summary>
    public FieldStats Stats(string field) =>
        _meta.TryGet(SearchIndex.FieldStatsKey(field), out var value) ? FieldStats.Read(value) : default;

    private FieldReader Field(string name)
    {
        if (!_fields.TryGetValue(name, out var reader))
        {
            var options = _index.Schema.Get(name);
            reader = new FieldReader(
                _transaction,
                name,
                _transaction.OpenTree(SearchIndex.TermsTree(name)),
                _transaction.OpenTree(SearchIndex.SealedTree(name)),
                options.IsNumeric,
                options.IsNumeric ? _transaction.OpenTree(SearchIndex.PointsTree(name)) : null,
                _transaction.OpenTree(SearchIndex.MarksTree(name)),
                _transaction.OpenTree(SearchIndex.ValuesTree(name)),
                options.Kind == FieldKind.FullText && _transaction.OpenTree(SearchIndex.NormsTree(name)) is { } norms ? norms : null,
                options.IsNumeric ? _transaction.OpenTree(SearchIndex.ColumnTree(name)) : null,
                options.Kind == FieldKind.Double ? DocValueType.Double : DocValueType.Long);
            _fields.Add(name, reader);
        }
        return reader;
    }

    /// <summary>Ends the snapshot and gives the searcher's buffers back to the index.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _transaction.Dispose();
        _index.ReturnScratch(_scratch);
    }

    // NumberType: the DocValueType of a numeric field's values (read only when the field has a column).
    // Points: a numeric field's points (null until it has some); a numeric field is read from them, not from Terms.
    private sealed record FieldReader(ReadTransaction Transaction, string Name, Tree? Terms, Tree? Sealed, bool IsNumeric, Tree? Points, Tree? Marks, Tree? Values, Tree? Norms,
        Tree? Column, byte NumberType)
    {
        private NumericColumn? _columnValues;
        private NumericColumn? _idColumnValues;
        // The term dictionary's trees and the id column serve exact values only, so a query opens them (a root-tree
        // lookup and a tree object each) when it first needs them.
        private bool _idTreesOpened;
        private List<PointBlocks>? _pointSets;
        private Tree? _termIds;
        private Tree? _idTerms;
        private Tree? _idColumn;
        private bool _positionsOpened;
        private PositionTrees? _positions;
        /// <summary>The term dictionary's term → id tree.</summary>
        public Tree? TermIds => OpenIdTrees()._termIds;

        /// <summary>A full-text field's positions (<see cref="PositionLists"/>), opened on first use (by a phrase or More Like This).</summary>
        public PositionTrees? Positions => _positionsOpened ? _positions : OpenPositions();

        /// <summary>
        /// A numeric field's sets of point blocks, read on first use: its main blocks, then its runs
        /// (<see cref="PointRuns"/>), whose entry ids follow the main blocks' and each other's.
        /// </summary>
        public List<PointBlocks> PointSets()
        {
            if (_pointSets is null)
            {
                var sets = new List<PointBlocks>();
                if (Points is not null)
                    sets.Add(PointBlocks.Whole(Points));
                if (IsNumeric && Transaction.OpenTree(SearchIndex.PointRunsTree(Name)) is { } runs)
                {
                    foreach (var start in PointRuns.Starts(runs))
                        sets.Add(PointRuns.Run(runs, start));
                }
                _pointSets = sets;
            }
            return _pointSets;
        }

        /// <summary>The sort column read for doc values, made on first use (it keeps a block cache).</summary>
        public NumericColumn? ColumnValues => Column is null ? null : _columnValues ??= Folio.Indexing.Search.NumericColumn.ForSortKeys(Column, decimals: false);

        /// <summary>The id column read for an exact field's doc values, made on first use.</summary>
        public NumericColumn? IdColumnValues => OpenIdTrees()._idColumn is not { } idColumn ? null : _idColumnValues ??= Folio.Indexing.Search.NumericColumn.ForTermIds(idColumn);

        /// <summary>The term an id column names (<paramref name="key"/> is scratch for the lookup).</summary>
        public ReadOnlySpan<byte> TermOf(long termId, Span<byte> key)
        {
            BinaryPrimitives.WriteInt64BigEndian(key, termId);
            if (OpenIdTrees()._idTerms is not { } idTerms || !idTerms.TryGet(key[..8], out var term))
                throw new Folio.Storage.CorruptionException($"An index entry's value names term id {termId}, which the term dictionary does not have.");
            return term;
        }

        private PositionTrees? OpenPositions()
        {
            if (Transaction.OpenTree(SearchIndex.PositionsTree(Name)) is { } lists)
            {
                _positions = new PositionTrees(lists, () => Transaction.OpenTree(SearchIndex.SealedPositionsTree(Name))
                    ?? throw new Folio.Storage.CorruptionException($"Field '{Name}' has sealed posting chunks without positions."));
            }
            _positionsOpened = true;
            return _positions;
        }

        private FieldReader OpenIdTrees()
        {
            if (!_idTreesOpened)
            {
                _termIds = Transaction.OpenTree(SearchIndex.TermIdsTree(Name));
                _idTerms = Transaction.OpenTree(SearchIndex.IdTermsTree(Name));
                _idColumn = Transaction.OpenTree(SearchIndex.IdColumnTree(Name));
                _idTreesOpened = true;
            }
            return this;
        }
    }
}
