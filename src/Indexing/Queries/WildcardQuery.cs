using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>
/// Entries whose field has a term matching a pattern with <c>*</c> at its start, its end or both
/// (<c>*son</c>, <c>jo*</c>, <c>*oh*</c>). A leading <c>*</c> has to look at every term of the field.
/// </summary>
public sealed class WildcardQuery(string field, string pattern) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The pattern.</summary>
    public string Pattern { get; } = pattern;

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher)
    {
        var leading = Pattern.StartsWith('*');
        var trailing = Pattern.Length > 1 && Pattern.EndsWith('*');
        var core = Pattern.Trim('*');
        if (core.Contains('*'))
            throw new ArgumentException("A wildcard may stand only at the start and the end of the pattern.", nameof(Pattern));
        if (!leading)
            return trailing ? new PrefixQuery(Field, core).CreateIterator(searcher) : new TermQuery(Field, FieldValue.From(core)).CreateIterator(searcher);
        var needle = searcher.NormalizedText(Field, core);
        // A shortened term keeps only its value's first bytes (the rest is a hash, which must not
        // match by chance): what they cannot show is verified against the whole values.
        return trailing
            ? searcher.UnionOfTerms(Field, [], static (term, state) =>
                TermEncoding.IsShortened(term)
                    ? term[..TermEncoding.KeptBytes].IndexOf(state) >= 0 ? TermVerdict.Take : TermVerdict.Verify
                    : term.IndexOf(state) >= 0 ? TermVerdict.Take : TermVerdict.Skip,
                needle, static (value, state) => value.IndexOf(state) >= 0)
            : searcher.UnionOfTerms(Field, [], static (term, state) =>
                TermEncoding.IsShortened(term) ? TermVerdict.Verify : term.EndsWith(state) ? TermVerdict.Take : TermVerdict.Skip,
                needle, static (value, state) => value.EndsWith(state));
    }
}
