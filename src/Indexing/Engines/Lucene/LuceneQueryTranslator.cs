using System.Text;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;
using Lucene.Net.Util.Automaton;
using LuceneQuery = Lucene.Net.Search.Query;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// Translates Folio's engine-neutral query trees into Lucene queries that match what Folio's engine matches: terms
/// come from the field's own analysis (<see cref="FieldTerms"/>), numbers are ranges over the trie-encoded longs
/// <see cref="LuceneDocumentBuilder"/> indexes, and only full-text clauses score (every other clause is a constant
/// score of 0, as Folio's iterators score nothing but full-text matches). Queries that read the index's own contents
/// to be built (more like this) read them through <paramref name="searcher"/>.
/// </summary>
internal sealed partial class LuceneQueryTranslator(IndexSchema schema, LuceneSearcher? searcher = null) : IQueryVisitor<LuceneQuery>
{
    /// <inheritdoc/>
    public LuceneQuery Visit(MatchAllQuery query) => All();

    /// <inheritdoc/>
    public LuceneQuery Visit(Queries.TermQuery query) => Unscored(Equal(query.Field, query.Value));

    /// <inheritdoc/>
    public LuceneQuery Visit(TermsInQuery query)
    {
        if (query.Values.Count == 0)
            return Nothing();
        var any = new BooleanQuery();
        if (query.Values.Count <= MergedValuesAtMost)
        {
            foreach (var value in query.Values)
                any.Add(Equal(query.Field, value), Occur.SHOULD);
            return Unscored(any);
        }
        // Many values: one filter that seeks each term once (numbers by their full-precision trie term), not a
        // clause per value that Lucene would merge document by document.
        var numeric = schema.Get(query.Field).IsNumeric;
        var terms = new List<Term>(query.Values.Count);
        foreach (var value in query.Values)
        {
            if (value.Type == FieldValueType.Null)
            {
                any.Add(Equal(query.Field, value), Occur.SHOULD);
                continue;
            }
            if (FieldTerms.WholeTerm(schema, query.Field, value) is not { } term)
                continue;
            if (numeric)
            {
                var coded = new BytesRef(NumericUtils.BUF_SIZE_INT64);
                NumericUtils.Int64ToPrefixCoded(LuceneDocumentBuilder.SortableLong(term), 0, coded);
                terms.Add(new Term(query.Field, coded));
            }
            else
            {
                terms.Add(new Term(query.Field, new BytesRef(term)));
            }
        }
        if (terms.Count > 0)
            any.Add(new ConstantScoreQuery(new global::Lucene.Net.Queries.TermsFilter(terms)), Occur.SHOULD);
        return Unscored(any);
    }

    /// <summary>Up to this many values, a set is a clause per value.</summary>
    private const int MergedValuesAtMost = 16;

    /// <inheritdoc/>
    public LuceneQuery Visit(RangeQuery query)
    {
        var options = schema.Get(query.Field);
        var low = query.Lower is { } l ? FieldTerms.WholeTerm(schema, query.Field, l) : [];
        var high = query.Upper is { } u ? FieldTerms.WholeTerm(schema, query.Field, u) : null;
        if (low is null || (query.Upper is not null && high is null))
            return Nothing();
        if (options.IsNumeric)
        {
            return Unscored(Walked(NumericRangeQuery.NewInt64Range(query.Field, LuceneDocumentBuilder.NumericPrecisionStep,
                query.Lower is null ? null : LuceneDocumentBuilder.SortableLong(low),
                high is null ? null : LuceneDocumentBuilder.SortableLong(high),
                query.LowerInclusive, query.UpperInclusive)));
        }
        return Unscored(Walked(new TermRangeQuery(query.Field, query.Lower is null ? null : new BytesRef(low), high is null ? null : new BytesRef(high),
            query.LowerInclusive, query.UpperInclusive)));
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(Queries.PrefixQuery query) => Unscored(StartingWith(query.Field, query.Prefix));

    /// <inheritdoc/>
    public LuceneQuery Visit(Queries.WildcardQuery query)
    {
        var pattern = query.Pattern;
        var leading = pattern.StartsWith('*');
        var trailing = pattern.Length > 1 && pattern.EndsWith('*');
        var core = pattern.Trim('*');
        if (core.Contains('*'))
            throw new ArgumentException("A wildcard may stand only at the start and the end of the pattern.", nameof(query));
        if (!leading)
            return Unscored(trailing ? StartingWith(query.Field, core) : Equal(query.Field, FieldValue.From(core)));
        if (!HasTextTerms(query.Field))
            return Nothing();
        var needle = BasicAutomata.MakeString(Encoding.UTF8.GetString(FieldTerms.NormalizedText(schema, query.Field, core)));
        var automaton = BasicOperations.Concatenate(BasicAutomata.MakeAnyString(), needle);
        if (trailing)
            automaton = BasicOperations.Concatenate(automaton, BasicAutomata.MakeAnyString());
        return Unscored(Walked(new AutomatonQuery(new Term(query.Field), automaton)));
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(RegexQuery query) =>
        HasTextTerms(query.Field) ? Unscored(Walked(new LuceneRegexQuery(query.Field, query.Regex))) : Nothing();

    /// <inheritdoc/>
    public LuceneQuery Visit(ExistsQuery query)
    {
        schema.Get(query.Field);
        return Unscored(new global::Lucene.Net.Search.TermQuery(new Term(LuceneFields.Exists, query.Field)));
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(FullTextQuery query)
    {
        var terms = new List<string>();
        foreach (var token in schema.Get(query.Field).EffectiveAnalyzer.AnalyzeToList(query.Text))
        {
            if (!terms.Contains(token.Term))
                terms.Add(token.Term);
        }
        if (terms.Count == 0)
            return Nothing();
        if (terms.Count == 1)
            return new global::Lucene.Net.Search.TermQuery(new Term(query.Field, terms[0]));
        var all = new BooleanQuery();
        foreach (var term in terms)
            all.Add(new global::Lucene.Net.Search.TermQuery(new Term(query.Field, term)), query.RequireAll ? Occur.MUST : Occur.SHOULD);
        return all;
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(Queries.PhraseQuery query)
    {
        var tokens = schema.Get(query.Field).EffectiveAnalyzer.AnalyzeToList(query.Phrase);
        if (tokens.Count == 0)
            return Nothing();
        if (tokens.Count == 1)
            return new global::Lucene.Net.Search.TermQuery(new Term(query.Field, tokens[0].Term));
        // Positions relative to the first token's: a leading stop word's gap must not push the phrase before the field's start.
        var phrase = new global::Lucene.Net.Search.PhraseQuery { Slop = query.Slop };
        foreach (var token in tokens)
            phrase.Add(new Term(query.Field, token.Term), token.Position - tokens[0].Position);
        return phrase;
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(Queries.FuzzyQuery query)
    {
        var options = schema.Get(query.Field);
        var any = new BooleanQuery();
        foreach (var term in FieldTerms.FuzzyTerms(schema, query.Field, query.Text))
        {
            any.Add(new global::Lucene.Net.Search.FuzzyQuery(new Term(query.Field, term), query.MaxEdits, 0, Queries.FuzzyQuery.MaxExpansions, transpositions: true),
                Occur.SHOULD);
        }
        LuceneQuery translated = any.Clauses.Count == 1 ? any.Clauses[0].Query : any;
        return options.Kind == FieldKind.FullText ? translated : Unscored(translated);
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(BoostQuery query)
    {
        var clause = query.Clause.Accept(this);
        if (!QueryScoring.IsScored(query.Clause, schema))
            return new ConstantScoreQuery(clause) { Boost = query.Factor };
        // Every translation is a query of its own, so its boost is this clause's to set.
        clause.Boost *= query.Factor;
        return clause;
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(SpatialQuery query)
    {
        schema.Get(query.Field);
        return Unscored(new LuceneSpatialQuery(query));
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(AndQuery query)
    {
        if (query.Must.Count == 1 && query.MustNot.Count == 0)
            return query.Must[0].Accept(this);
        var and = new BooleanQuery();
        if (query.Must.Count == 0)
            and.Add(All(), Occur.MUST);
        foreach (var must in query.Must)
            and.Add(must.Accept(this), Occur.MUST);
        foreach (var not in query.MustNot)
            and.Add(not.Accept(this), Occur.MUST_NOT);
        return and;
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(OrQuery query)
    {
        if (query.Should.Count == 0)
            return Nothing();
        if (query.Should.Count == 1)
            return query.Should[0].Accept(this);
        return Any(query.Should, 0, query.Should.Count);
    }

    /// <summary>Lucene takes at most 1,024 clauses in one boolean query (more throws): a longer disjunction nests in groups.</summary>
    private const int ClausesPerGroup = 512;

    private BooleanQuery Any(IReadOnlyList<Queries.Query> should, int start, int end)
    {
        var or = new BooleanQuery();
        var count = end - start;
        if (count <= ClausesPerGroup)
        {
            for (var i = start; i < end; i++)
                or.Add(should[i].Accept(this), Occur.SHOULD);
            return or;
        }
        var groupSize = Math.Max(ClausesPerGroup, (count + ClausesPerGroup - 1) / ClausesPerGroup);
        for (var first = start; first < end; first += groupSize)
            or.Add(Any(should, first, Math.Min(end, first + groupSize)), Occur.SHOULD);
        return or;
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(NotQuery query) => new BooleanQuery
    {
        { All(), Occur.MUST },
        { query.Clause.Accept(this), Occur.MUST_NOT },
    };

    /// <summary>The entries whose field equals <paramref name="value"/> (an explicit null: those whose field is null).</summary>
    private LuceneQuery Equal(string field, FieldValue value)
    {
        if (value.Type == FieldValueType.Null)
        {
            schema.Get(field);
            return new global::Lucene.Net.Search.TermQuery(new Term(LuceneFields.Null, field));
        }
        // The whole term, not Folio's equality term (which keeps 256 bytes of a longer one): Lucene's terms are whole.
        if (FieldTerms.WholeTerm(schema, field, value) is not { } term)
            return Nothing();
        if (schema.Get(field).IsNumeric)
        {
            var number = LuceneDocumentBuilder.SortableLong(term);
            return NumericRangeQuery.NewInt64Range(field, LuceneDocumentBuilder.NumericPrecisionStep, number, number, true, true);
        }
        return new global::Lucene.Net.Search.TermQuery(new Term(field, new BytesRef(term)));
    }

    private LuceneQuery StartingWith(string field, string prefix) => HasTextTerms(field)
        ? Walked(new global::Lucene.Net.Search.PrefixQuery(new Term(field, new BytesRef(FieldTerms.NormalizedText(schema, field, prefix)))))
        : Nothing();

    /// <summary>A query that walks a field's terms, made to stop when the searcher's query is cancelled (its budget or its client).</summary>
    private T Walked<T>(T query)
        where T : MultiTermQuery => CancellableTermsRewrite.Apply(query, searcher?.Guard ?? QueryGuard.None);

    private bool HasTextTerms(string field) => schema.Get(field).Kind is FieldKind.Exact or FieldKind.FullText;

    private static LuceneQuery All() => Unscored(new MatchAllDocsQuery());

    private static LuceneQuery Nothing() => new BooleanQuery();

    /// <summary>A clause that matches but adds nothing to a score (a constant score of 0).</summary>
    private static LuceneQuery Unscored(LuceneQuery query) => new ConstantScoreQuery(query) { Boost = 0 };
}
