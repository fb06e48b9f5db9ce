using System.Diagnostics;

namespace Folio.Indexing.Queries;

/// <summary>
/// A query over an index: a tree of conditions on fields, the same for every search engine. An engine
/// translates the tree through an <see cref="IQueryVisitor{TResult}"/>; the kinds of query are the
/// sealed classes of this namespace and no others (the constructor is not open to other assemblies), so
/// a visitor that has a method for each handles every tree.
/// </summary>
public abstract class Query
{
    private protected Query()
    {
    }

    // A type switch rather than a virtual Accept per subclass: a generic virtual method costs a runtime
    // lookup per call, and this stays one interface call per node, as the virtual CreateIterator was.
    /// <summary>Calls the method of <paramref name="visitor"/> for this query's kind and returns what it made.</summary>
    public TResult Accept<TResult>(IQueryVisitor<TResult> visitor) => this switch
    {
        TermQuery term => visitor.Visit(term),
        AndQuery and => visitor.Visit(and),
        RangeQuery range => visitor.Visit(range),
        OrQuery or => visitor.Visit(or),
        NotQuery not => visitor.Visit(not),
        FullTextQuery fullText => visitor.Visit(fullText),
        MatchAllQuery all => visitor.Visit(all),
        TermsInQuery terms => visitor.Visit(terms),
        ExistsQuery exists => visitor.Visit(exists),
        PrefixQuery prefix => visitor.Visit(prefix),
        WildcardQuery wildcard => visitor.Visit(wildcard),
        PhraseQuery phrase => visitor.Visit(phrase),
        FuzzyQuery fuzzy => visitor.Visit(fuzzy),
        BoostQuery boost => visitor.Visit(boost),
        RegexQuery regex => visitor.Visit(regex),
        MoreLikeThisQuery moreLikeThis => visitor.Visit(moreLikeThis),
        IntersectQuery intersect => visitor.Visit(intersect),
        SpatialQuery spatial => visitor.Visit(spatial),
        _ => throw new UnreachableException($"Query kind {GetType().Name} has no visitor method."),
    };
}
