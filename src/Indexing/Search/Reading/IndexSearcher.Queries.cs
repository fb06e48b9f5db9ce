using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Search;

// Folio's translation of query trees into iterators over this snapshot's postings. The searcher is its own
// visitor (explicitly, so it is no part of its public face), so a query allocates no translator.
public sealed partial class IndexSearcher : IQueryVisitor<DocIdIterator>
{
    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(MatchAllQuery query) => AllEntries();

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(TermQuery query) => Equal(query.Field, query.Value);

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(RangeQuery query)
    {
        // Bounds are whole values: a value longer than a term keeps only its first bytes in its
        // term, so terms that cannot decide are verified against the entries' whole values.
        var low = query.Lower is { } l ? WholeTerm(query.Field, l) : [];
        var high = query.Upper is { } u ? WholeTerm(query.Field, u) : null;
        if (low is null || (query.Upper is not null && high is null))
            return new EmptyIterator();
        var bounds = new RangeBounds(query.Lower is null ? null : low, query.LowerInclusive, high, query.UpperInclusive);
        var from = low.Length > TermEncoding.KeptBytes ? low[..TermEncoding.KeptBytes] : low;
        return UnionOfTerms(query.Field, from, static (term, b) =>
        {
            var above = b.Lower is null ? 1 : TermEncoding.CompareToValue(term, b.Lower);
            if (above is { } a && (a < 0 || (a == 0 && !b.LowerInclusive)))
                return TermVerdict.Skip;
            var below = b.Upper is null ? -1 : TermEncoding.CompareToValue(term, b.Upper);
            if (below is { } c && (c > 0 || (c == 0 && !b.UpperInclusive)))
            {
                // Shortened terms sort after every whole term with the same kept bytes, so the walk
                // goes on while it is among terms that share the upper bound's kept bytes.
                return c > 0 && !TermEncoding.SharesKeptPrefix(term, b.Upper) ? TermVerdict.Stop : TermVerdict.Skip;
            }
            return above is null || below is null ? TermVerdict.Verify : TermVerdict.Take;
        }, bounds, static (value, b) =>
        {
            var above = b.Lower is null ? 1 : value.SequenceCompareTo(b.Lower);
            var below = b.Upper is null ? -1 : value.SequenceCompareTo(b.Upper);
            return (above > 0 || (above == 0 && b.LowerInclusive)) && (below < 0 || (below == 0 && b.UpperInclusive));
        });
    }

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(PrefixQuery query) => StartingWith(query.Field, query.Prefix);

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(WildcardQuery query)
    {
        var pattern = query.Pattern;
        var leading = pattern.StartsWith('*');
        var trailing = pattern.Length > 1 && pattern.EndsWith('*');
        var core = pattern.Trim('*');
        if (core.Contains('*'))
            throw new ArgumentException("A wildcard may stand only at the start and the end of the pattern.", nameof(query.Pattern));
        if (!leading)
            return trailing ? StartingWith(query.Field, core) : Equal(query.Field, FieldValue.From(core));
        var needle = NormalizedText(query.Field, core);
        // A shortened term keeps only its value's first bytes (the rest is a hash, which must not
        // match by chance): what they cannot show is verified against the whole values.
        return trailing
            ? UnionOfTerms(query.Field, [], static (term, state) =>
                TermEncoding.IsShortened(term)
                    ? term[..TermEncoding.KeptBytes].IndexOf(state) >= 0 ? TermVerdict.Take : TermVerdict.Verify
                    : term.IndexOf(state) >= 0 ? TermVerdict.Take : TermVerdict.Skip,
                needle, static (value, state) => value.IndexOf(state) >= 0)
            : UnionOfTerms(query.Field, [], static (term, state) =>
                TermEncoding.IsShortened(term) ? TermVerdict.Verify : term.EndsWith(state) ? TermVerdict.Take : TermVerdict.Skip,
                needle, static (value, state) => value.EndsWith(state));
    }

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(ExistsQuery query) => Marks(query.Field, SearchIndex.ExistsTerm);

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(FullTextQuery query)
    {
        var terms = AnalyzeDistinct(query.Field, query.Text);
        var scorers = new List<DocIdIterator>(terms.Count);
        foreach (var term in terms)
        {
            var scorer = Scorer(query.Field, term);
            if (scorer is null)
            {
                if (query.RequireAll)
                    return new EmptyIterator();
                continue;
            }
            scorers.Add(scorer);
        }
        if (scorers.Count == 0)
            return new EmptyIterator();
        if (scorers.Count == 1)
            return scorers[0];
        return query.RequireAll ? new AndIterator([.. scorers]) : new OrIterator([.. scorers]);
    }

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(PhraseQuery query)
    {
        var tokens = AnalyzeWithPositions(query.Field, query.Phrase);
        if (tokens.Count == 0)
            return new EmptyIterator();
        var iterators = new DocIdIterator[tokens.Count];
        for (var i = 0; i < tokens.Count; i++)
        {
            var scorer = Scorer(query.Field, tokens[i].Term);
            if (scorer is null)
                return new EmptyIterator();
            iterators[i] = scorer;
        }
        return tokens.Count == 1 ? iterators[0] : new PhraseIterator(this, query.Field, tokens, new AndIterator(iterators), query.Slop);
    }

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(AndQuery query)
    {
        var must = query.Must;
        DocIdIterator include;
        if (must.Count == 0)
        {
            include = AllEntries();
        }
        else if (must.Count == 1)
        {
            include = must[0].Accept(this);
        }
        else
        {
            var children = new DocIdIterator[must.Count];
            for (var i = 0; i < children.Length; i++)
                children[i] = must[i].Accept(this);
            include = new AndIterator(children);
        }
        foreach (var not in query.MustNot)
            include = new AndNotIterator(include, not.Accept(this));
        return include;
    }

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(OrQuery query)
    {
        var should = query.Should;
        if (should.Count == 0)
            return new EmptyIterator();
        if (should.Count == 1)
            return should[0].Accept(this);
        var children = new DocIdIterator[should.Count];
        for (var i = 0; i < children.Length; i++)
            children[i] = should[i].Accept(this);
        return new OrIterator(children);
    }

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(NotQuery query) => new AndNotIterator(AllEntries(), query.Clause.Accept(this));

    /// <summary>The entries whose field equals <paramref name="value"/> (an explicit null: those whose field is null).</summary>
    private DocIdIterator Equal(string field, FieldValue value)
    {
        if (value.Type == FieldValueType.Null)
            return Marks(field, SearchIndex.NullTerm);
        var term = EqualityTerm(field, value);
        return term is null ? new EmptyIterator() : Postings(field, term);
    }

    /// <summary>The entries whose field has a term starting with <paramref name="prefix"/>, normalized as the field compares.</summary>
    private DocIdIterator StartingWith(string field, string prefix)
    {
        var normalized = NormalizedText(field, prefix);
        return UnionOfTerms(field, normalized.Length > TermEncoding.KeptBytes ? normalized[..TermEncoding.KeptBytes] : normalized, static (term, state) =>
        {
            if (term.StartsWith(state))
                return TermVerdict.Take;
            // A prefix longer than a shortened term's kept bytes: such terms follow the whole terms
            // that share those bytes, and only their entries' whole values can tell.
            if (TermEncoding.SharesKeptPrefix(term, state))
                return TermEncoding.IsShortened(term) ? TermVerdict.Verify : TermVerdict.Skip;
            return TermVerdict.Stop;
        }, normalized, static (value, state) => value.StartsWith(state));
    }

    private sealed record RangeBounds(byte[]? Lower, bool LowerInclusive, byte[]? Upper, bool UpperInclusive);
}
