using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>Entries whose field has a term starting with a prefix (after the field's normalization).</summary>
public sealed class PrefixQuery(string field, string prefix) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The prefix.</summary>
    public string Prefix { get; } = prefix;

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher)
    {
        var prefix = searcher.NormalizedText(Field, Prefix);
        return searcher.UnionOfTerms(Field, prefix, static (term, state) =>
            term.AsSpan().StartsWith(state) ? TermVerdict.Take : TermVerdict.Stop, prefix);
    }
}
