using Folio.Indexing.Engines;

namespace Folio.Server.Configuration;

/// <summary>Settings of indexing (the <c>Indexing</c> section).</summary>
public sealed class IndexingOptions
{
    /// <summary>
    /// The search engine of auto indexes and of index definitions that name none (<c>Indexing:SearchEngine</c>):
    /// <c>Folio</c> (the default) or <c>Lucene</c>. An index keeps the engine it was built with when this changes.
    /// </summary>
    public string SearchEngine { get; set; } = SearchEngines.Default;

    /// <summary>The problems with these settings (none when valid).</summary>
    public IReadOnlyList<string> Validate() =>
        SearchEngines.TryGet(SearchEngine, out _) ? [] : ["Indexing:SearchEngine: " + SearchEngines.UnknownMessage(SearchEngine)];
}
