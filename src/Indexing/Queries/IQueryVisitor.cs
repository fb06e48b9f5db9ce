namespace Folio.Indexing.Queries;

/// <summary>
/// Translates a query tree, one method per kind of <see cref="Query"/>: how a search engine turns the
/// engine-neutral tree into its own (Folio's engine into iterators over its postings, a Lucene.Net engine
/// into Lucene queries). <see cref="Query.Accept{TResult}(IQueryVisitor{TResult})"/> calls the method of
/// the query's kind; a composite query's method visits its clauses itself. A new kind of query adds a
/// method here, so every engine fails to build until it translates it.
/// </summary>
/// <typeparam name="TResult">What the translation makes of a query.</typeparam>
public interface IQueryVisitor<out TResult>
{
    /// <summary>Translates <see cref="MatchAllQuery"/>.</summary>
    TResult Visit(MatchAllQuery query);

    /// <summary>Translates <see cref="TermQuery"/>.</summary>
    TResult Visit(TermQuery query);

    /// <summary>Translates <see cref="TermsInQuery"/>.</summary>
    TResult Visit(TermsInQuery query);

    /// <summary>Translates <see cref="RangeQuery"/>.</summary>
    TResult Visit(RangeQuery query);

    /// <summary>Translates <see cref="PrefixQuery"/>.</summary>
    TResult Visit(PrefixQuery query);

    /// <summary>Translates <see cref="WildcardQuery"/>.</summary>
    TResult Visit(WildcardQuery query);

    /// <summary>Translates <see cref="RegexQuery"/>.</summary>
    TResult Visit(RegexQuery query);

    /// <summary>Translates <see cref="ExistsQuery"/>.</summary>
    TResult Visit(ExistsQuery query);

    /// <summary>Translates <see cref="FullTextQuery"/>.</summary>
    TResult Visit(FullTextQuery query);

    /// <summary>Translates <see cref="PhraseQuery"/>.</summary>
    TResult Visit(PhraseQuery query);

    /// <summary>Translates <see cref="FuzzyQuery"/>.</summary>
    TResult Visit(FuzzyQuery query);

    /// <summary>Translates <see cref="BoostQuery"/>.</summary>
    TResult Visit(BoostQuery query);

    /// <summary>Translates <see cref="MoreLikeThisQuery"/>.</summary>
    TResult Visit(MoreLikeThisQuery query);

    /// <summary>Translates <see cref="IntersectQuery"/>.</summary>
    TResult Visit(IntersectQuery query);
    /// <summary>Translates <see cref="SpatialQuery"/>.</summary>
    TResult Visit(SpatialQuery query);

    /// <summary>Translates <see cref="AndQuery"/>.</summary>
    TResult Visit(AndQuery query);

    /// <summary>Translates <see cref="OrQuery"/>.</summary>
    TResult Visit(OrQuery query);

    /// <summary>Translates <see cref="NotQuery"/>.</summary>
    TResult Visit(NotQuery query);
}
