using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Engines;

/// <summary>
/// Answers queries on one snapshot of an index (<see cref="IEngineIndex.OpenSearcher"/>): whatever commits
/// meanwhile, it sees the index as it was when opened. Entries are named by entry ids, numbers the engine
/// gives them, valid with this searcher only. Dispose it to let go of the snapshot.
/// </summary>
public interface IEngineSearcher : IDisposable
{
    /// <summary>The number of entries.</summary>
    long EntryCount { get; }

    /// <summary>
    /// Stops this searcher's walks (<see cref="Search"/>, <see cref="Collect"/>, <see cref="Count"/>, term
    /// expansions): a query's time budget, its client going away, its memory limit. Checked every thousand or so
    /// entries or terms, never per entry.
    /// </summary>
    QueryGuard Guard { get; set; }

    /// <summary>How many entries match, without materializing them.</summary>
    long Count(Query query);

    /// <summary>
    /// The page <paramref name="skip"/>..<paramref name="skip"/>+<paramref name="take"/> of the matches in
    /// <paramref name="sort"/> order (ties, and no sort, by entry id), with the number of all matches.
    /// </summary>
    TopDocs Search(Query query, int skip, int take, IReadOnlyList<SortField>? sort = null);

    /// <summary>The matching entry ids in increasing order (for callers that walk matches themselves, reading keys with <see cref="GetKey"/>).</summary>
    DocIdIterator Iterate(Query query);

    /// <summary>The key an entry was indexed under.</summary>
    string GetKey(long entryId);

    /// <summary>
    /// The values of a field of an entry, as indexed: numbers as numbers, exact text normalized, stored text
    /// as given. Null when the entry does not have the field (full-text fields keep none).
    /// </summary>
    List<FieldValue>? GetValues(string field, long entryId);

    /// <summary>A reader of a field's values for collectors, a batch of entries at a time.</summary>
    /// <exception cref="ArgumentException">The index has no such field.</exception>
    IDocValues OpenDocValues(string field);

    /// <summary>
    /// A collector of the page <see cref="Search"/> answers, to collect it in one walk with other collectors
    /// (<see cref="CompositeCollector"/>) on this searcher.
    /// </summary>
    ITopDocsCollector CreateTopDocsCollector(int skip, int take, IReadOnlyList<SortField>? sort = null);

    /// <summary>Walks the matches of <paramref name="query"/> once, handing them to <paramref name="collector"/> (<see cref="ICollector"/>).</summary>
    void Collect(Query query, ICollector collector);

    /// <summary>
    /// Walks the text terms of <paramref name="field"/> in byte order, handing each to <paramref name="walker"/>
    /// (<see cref="ITermWalker"/>): terms as indexed (normalized, analyzed), numbers and terms shortened past the
    /// term size limit left out. A field the index has no terms for walks none.
    /// </summary>
    /// <exception cref="ArgumentException">The index has no such field.</exception>
    void WalkTerms(string field, ITermWalker walker);

    /// <summary>
    /// How the entry <paramref name="entryId"/> scores for <paramref name="query"/> (<c>include explanations()</c>): the
    /// score, then each clause's part of it on lines of its own, indented under the clause they make up.
    /// </summary>
    string Explain(Query query, long entryId);
}
