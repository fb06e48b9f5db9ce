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
        return searcher.UnionOfTerms(Field, prefix.Length > TermEncoding.KeptBytes ? prefix[..TermEncoding.KeptBytes] : prefix, static (term, state) =>
        {
            if (term.StartsWith(state))
                return TermVerdict.Take;
            // A prefix longer than a shortened term's kept bytes: such terms follow the whole terms
            // that share those bytes, and only their entries' whole values can tell.
            if (TermEncoding.SharesKeptPrefix(term, state))
                return TermEncoding.IsShortened(term) ? TermVerdict.Verify : TermVerdict.Skip;
            return TermVerdict.Stop;
        }, prefix, static (value, state) => value.StartsWith(state));
    }
}
