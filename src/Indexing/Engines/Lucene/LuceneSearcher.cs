using System.Text;
using Folio.Indexing.Collectors;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;
using Lucene.Net.Index;
using Lucene.Net.Search;
using ICollector = Folio.Indexing.Collectors.ICollector;
using ITopDocsCollector = Folio.Indexing.Collectors.ITopDocsCollector;
using SortField = Folio.Indexing.Collectors.SortField;
using TopDocs = Folio.Indexing.Collectors.TopDocs;
using Lucene.Net.Util;
using FolioQuery = Folio.Indexing.Queries.Query;
using LuceneIndexSearcher = Lucene.Net.Search.IndexSearcher;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// A searcher of a <see cref="LuceneIndex"/> on one Lucene commit (a reader the index's searcher manager handed out):
/// entry ids are the reader's document numbers, valid with this searcher only; values come from the binary doc values
/// <see cref="LuceneDocumentBuilder"/> writes per field.
/// </summary>
internal sealed class LuceneSearcher : IEngineSearcher
{
    private readonly LuceneIndex _index;
    private readonly LuceneQueryTranslator _translator;
    // Per field of the index, its values' binary doc values per segment; and the keys'.
    private readonly Dictionary<string, BinaryDocValues?[]> _values = new(StringComparer.Ordinal);
    private BinaryDocValues?[]? _keys;
    private readonly BytesRef _scratch = new();
    private bool _disposed;

    public LuceneSearcher(LuceneIndex index, LuceneIndexSearcher searcher)
    {
        _index = index;
        Searcher = searcher;
        Leaves = searcher.IndexReader.Leaves;
        _translator = new LuceneQueryTranslator(index.Schema, this);
    }

    /// <summary>The Lucene searcher on the snapshot.</summary>
    public LuceneIndexSearcher Searcher { get; }

    /// <summary>The snapshot's segments.</summary>
    public IList<AtomicReaderContext> Leaves { get; }

    /// <summary>The index's fields.</summary>
    public IndexSchema Schema => _index.Schema;

    /// <inheritdoc/>
    public long EntryCount => Searcher.IndexReader.NumDocs;

    /// <inheritdoc/>
    public QueryGuard Guard { get; set; } = QueryGuard.None;

    /// <inheritdoc/>
    public long Count(FolioQuery query)
    {
        var matches = Iterate(query);
        long count = 0;
        while (matches.MoveNext())
        {
            if ((++count & MatchWalk.CancellationStride) == 0)
                Guard.Check();
        }
        return count;
    }

    /// <inheritdoc/>
    public TopDocs Search(FolioQuery query, int skip, int take, IReadOnlyList<SortField>? sort = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(skip);
        ArgumentOutOfRangeException.ThrowIfNegative(take);
        if (sort is { Count: > 0 })
        {
            var collector = new LuceneTopDocsCollector(this, sort, skip, take);
            Collect(query, collector);
            return collector.TopDocs;
        }
        return MatchWalk.FirstInIdOrder(this, Iterate(query), skip, take);
    }

    /// <inheritdoc/>
    public DocIdIterator Iterate(FolioQuery query) => new LuceneDocIdIterator(Searcher, Translate(query));

    /// <inheritdoc/>
    public string GetKey(long entryId)
    {
        var bytes = Read(_keys ??= Load(LuceneFields.Key), entryId);
        if (bytes.IsEmpty)
            throw new Folio.Storage.CorruptionException($"Lucene document {entryId} has no key.");
        return Encoding.UTF8.GetString(bytes);
    }

    /// <inheritdoc/>
    public List<FieldValue>? GetValues(string field, long entryId)
    {
        Schema.Get(field);
        var encoded = Read(FieldValues(field), entryId);
        if (encoded.IsEmpty)
            return null;
        var values = new List<FieldValue>();
        var block = new DocValuesBlock();
        block.AddEntry(encoded);
        foreach (var value in block[0])
            values.Add(value.ToFieldValue());
        return values;
    }

    /// <inheritdoc/>
    public IDocValues OpenDocValues(string field)
    {
        Schema.Get(field);
        return new LuceneDocValues(this, field);
    }

    /// <inheritdoc/>
    public ITopDocsCollector CreateTopDocsCollector(int skip, int take, IReadOnlyList<SortField>? sort = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(skip);
        ArgumentOutOfRangeException.ThrowIfNegative(take);
        return new LuceneTopDocsCollector(this, sort ?? [], skip, take);
    }

    /// <inheritdoc/>
    public void Collect(FolioQuery query, ICollector collector)
    {
        ArgumentNullException.ThrowIfNull(collector);
        MatchWalk.InBatches(this, Iterate(query), collector);
    }

    /// <inheritdoc/>
    public void WalkTerms(string field, ITermWalker walker)
    {
        ArgumentNullException.ThrowIfNull(walker);
        if (Schema.Get(field).Kind is not (FieldKind.Exact or FieldKind.FullText))
            return;
        var reader = Searcher.IndexReader;
        if (MultiFields.GetTerms(reader, field) is not { } terms)
            return;
        var walk = terms.GetEnumerator();
        var walked = 0;
        while (walk.MoveNext())
        {
            if ((++walked & Collectors.MatchWalk.CancellationStride) == 0)
                Guard.Check();
            var term = walk.Term;
            var bytes = term.Bytes.AsSpan(term.Offset, term.Length);
            if (TermEncoding.IsShortened(bytes) || !System.Text.Unicode.Utf8.IsValid(bytes) || !walker.Wants(bytes))
                continue;
            // A term's document frequency still counts deleted documents until their segment merges: only a kept
            // term is counted again over the live ones.
            var frequency = reader.HasDeletions ? LiveDocumentFrequency(field, BytesRef.DeepCopyOf(term)) : walk.DocFreq;
            walker.Add(bytes, frequency);
        }
    }

    /// <inheritdoc/>
    public string Explain(FolioQuery query, long entryId) => Searcher.Explain(Translate(query), (int)entryId).ToString().TrimEnd();

    /// <summary>
    /// The bytes of an entry's binary doc value in <paramref name="perSegment"/> (<see cref="FieldValues"/>; empty when
    /// the entry has none); valid until the next read on this searcher.
    /// </summary>
    internal ReadOnlySpan<byte> Read(BinaryDocValues?[] perSegment, long entryId)
    {
        var leaf = ReaderUtil.SubIndex((int)entryId, Leaves);
        if (perSegment[leaf] is not { } values)
            return default;
        values.Get((int)entryId - Leaves[leaf].DocBase, _scratch);
        return _scratch.Bytes.AsSpan(_scratch.Offset, _scratch.Length);
    }

    /// <summary>The binary doc values holding <paramref name="field"/>'s values, per segment (null where a segment has none); resolve once, read per entry.</summary>
    internal BinaryDocValues?[] FieldValues(string field)
    {
        if (!_values.TryGetValue(field, out var values))
        {
            values = Load(LuceneFields.Values(field));
            _values.Add(field, values);
        }
        return values;
    }

    private BinaryDocValues?[] Load(string luceneField)
    {
        var values = new BinaryDocValues?[Leaves.Count];
        for (var i = 0; i < values.Length; i++)
            values[i] = Leaves[i].AtomicReader.GetBinaryDocValues(luceneField);
        return values;
    }

    /// <summary>How many live entries have <paramref name="term"/> in <paramref name="field"/>.</summary>
    internal long LiveDocumentFrequency(string field, BytesRef term)
    {
        long count = 0;
        var lookup = new Term(field, term);
        foreach (var leaf in Leaves)
        {
            var docs = leaf.AtomicReader.GetTermDocsEnum(lookup);
            if (docs is null)
                continue;
            while (docs.NextDoc() != DocIdSetIterator.NO_MORE_DOCS)
                count++;
        }
        return count;
    }

    /// <summary>Lets go of the snapshot.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _index.Release(Searcher);
    }

    private global::Lucene.Net.Search.Query Translate(FolioQuery query) => query.Accept(_translator);
}
