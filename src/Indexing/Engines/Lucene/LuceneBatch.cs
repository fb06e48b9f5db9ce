using Folio.Indexing.Search;
using Lucene.Net.Index;
using Lucene.Net.Search;
using IndexSearcher = Lucene.Net.Search.IndexSearcher;
using Lucene.Net.Util;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// A batch on a <see cref="LuceneIndex"/>: adds are updates by the key term (replacing any entry with the key), deletes
/// are deletes by it, and <see cref="Commit"/> is a Lucene commit carrying the processed etag. Whether a key had an
/// entry is answered from the last commit's searcher and what this batch did to the key since.
/// </summary>
internal sealed class LuceneBatch(LuceneIndex index, IndexSearcher committedSearcher) : IEngineBatch
{
    // Keys this batch added (true) or deleted (false): what the committed searcher no longer tells.
    private readonly Dictionary<string, bool> _touched = new(StringComparer.Ordinal);
    private readonly IndexSearcher _committed = committedSearcher;
    // Per segment of the last commit, its key terms and a postings enum, reused by every lookup (made by the first).
    private TermsEnum?[]? _keyTerms;
    private DocsEnum?[]? _keyDocs;
    private bool _done;

    /// <inheritdoc/>
    public int Added { get; private set; }

    /// <inheritdoc/>
    public int Deleted { get; private set; }

    /// <inheritdoc/>
    public void Add(IndexEntry entry)
    {
        ObjectDisposedException.ThrowIf(_done, this);
        ArgumentNullException.ThrowIfNull(entry);
        if (entry.Key.Length == 0)
            throw new ArgumentException("An entry key must not be empty.", nameof(entry));
        var document = index.Builder.Build(entry);
        var keyTerm = KeyTerm(entry.Key);
        if (Exists(entry.Key, keyTerm))
            Deleted++;
        index.Writer.UpdateDocument(keyTerm, document);
        _touched[entry.Key] = true;
        Added++;
    }

    /// <inheritdoc/>
    public bool Delete(string key)
    {
        ObjectDisposedException.ThrowIf(_done, this);
        ArgumentNullException.ThrowIfNull(key);
        var keyTerm = KeyTerm(key);
        if (!Exists(key, keyTerm))
            return false;
        index.Writer.DeleteDocuments(keyTerm);
        _touched[key] = false;
        Deleted++;
        return true;
    }

    /// <inheritdoc/>
    public void Commit(long processedEtag)
    {
        ObjectDisposedException.ThrowIf(_done, this);
        index.Commit(processedEtag);
        End(committed: true);
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        if (!_done)
            End(committed: false);
    }

    private void End(bool committed)
    {
        _done = true;
        index.Release(_committed);
        index.EndBatch(committed);
    }

    private bool Exists(string key, Term term)
    {
        if (_touched.TryGetValue(key, out var exists))
            return exists;
        var leaves = _committed.IndexReader.Leaves;
        if (_keyTerms is null)
        {
            _keyTerms = new TermsEnum?[leaves.Count];
            _keyDocs = new DocsEnum?[leaves.Count];
            for (var i = 0; i < leaves.Count; i++)
                _keyTerms[i] = leaves[i].AtomicReader.GetTerms(LuceneFields.Key)?.GetEnumerator();
        }
        for (var i = 0; i < leaves.Count; i++)
        {
            if (_keyTerms[i] is not { } terms || !terms.SeekExact(term.Bytes))
                continue;
            var docs = _keyDocs![i] = terms.Docs(leaves[i].AtomicReader.LiveDocs, _keyDocs[i], DocsFlags.NONE);
            if (docs.NextDoc() != DocIdSetIterator.NO_MORE_DOCS)
                return true;
        }
        return false;
    }

    private static Term KeyTerm(string key) => new(LuceneFields.Key, new BytesRef(key));
}
