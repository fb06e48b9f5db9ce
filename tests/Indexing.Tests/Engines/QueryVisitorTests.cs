using Folio.Indexing.Queries;
using Folio.Indexing.Search;

namespace Folio.Indexing.Tests.Engines;

/// <summary>Every kind of query reaches its own method of a visitor, so an engine that implements the visitor translates every tree.</summary>
public class QueryVisitorTests
{
    private static readonly Query[] OneOfEachKind =
    [
        MatchAllQuery.Instance,
        new TermQuery("F", FieldValue.From("v")),
        new TermsInQuery("F", [FieldValue.From(1L)]),
        new RangeQuery("F", FieldValue.From(1L), true, null, false),
        new PrefixQuery("F", "p"),
        new WildcardQuery("F", "*w"),
        new ExistsQuery("F"),
        new FullTextQuery("F", "text"),
        new PhraseQuery("F", "a phrase"),
        new FuzzyQuery("F", "fuzy", 1),
        new BoostQuery(MatchAllQuery.Instance, 2),
        new MoreLikeThisQuery(MatchAllQuery.Instance, [], ["F"], new MoreLikeThisOptions()),
        new IntersectQuery([MatchAllQuery.Instance], "F"),
        new AndQuery([MatchAllQuery.Instance]),
        new OrQuery([MatchAllQuery.Instance]),
        new NotQuery(MatchAllQuery.Instance),
        new RegexQuery("F", new System.Text.RegularExpressions.Regex("^a")),
        new SpatialQuery("Location", new Folio.Indexing.Spatial.CircleShape(10, 47.6, -122.3, Folio.Indexing.Spatial.SpatialUnits.Kilometers)),
    ];

    [Fact]
    public void IQueryVisitor_HasAMethod_ForEachKindOfQuery()
    {
        var kinds = typeof(Query).Assembly.GetTypes().Where(t => t.IsSubclassOf(typeof(Query))).ToHashSet();
        Assert.All(kinds, kind => Assert.True(kind.IsSealed, $"{kind.Name} must be sealed: a visitor translates kinds, not subclasses of them"));
        var visited = typeof(IQueryVisitor<>).GetMethods().Select(m => m.GetParameters().Single().ParameterType).ToHashSet();
        Assert.Equal(kinds.OrderBy(t => t.Name), visited.OrderBy(t => t.Name));
        Assert.Equal(kinds.OrderBy(t => t.Name), OneOfEachKind.Select(q => q.GetType()).OrderBy(t => t.Name));
    }

    [Fact]
    public void Accept_CallsTheVisitorMethod_OfTheQuerysKind()
    {
        var visitor = new KindNames();
        foreach (var query in OneOfEachKind)
            Assert.Equal(query.GetType().Name, query.Accept(visitor));
    }

    private sealed class KindNames : IQueryVisitor<string>
    {
        public string Visit(MatchAllQuery query) => nameof(MatchAllQuery);

        public string Visit(TermQuery query) => nameof(TermQuery);

        public string Visit(TermsInQuery query) => nameof(TermsInQuery);

        public string Visit(RangeQuery query) => nameof(RangeQuery);

        public string Visit(PrefixQuery query) => nameof(PrefixQuery);

        public string Visit(WildcardQuery query) => nameof(WildcardQuery);

        public string Visit(RegexQuery query) => nameof(RegexQuery);

        public string Visit(ExistsQuery query) => nameof(ExistsQuery);

        public string Visit(FullTextQuery query) => nameof(FullTextQuery);

        public string Visit(PhraseQuery query) => nameof(PhraseQuery);

        public string Visit(FuzzyQuery query) => nameof(FuzzyQuery);

        public string Visit(BoostQuery query) => nameof(BoostQuery);

        public string Visit(MoreLikeThisQuery query) => nameof(MoreLikeThisQuery);

        public string Visit(IntersectQuery query) => nameof(IntersectQuery);
        public string Visit(SpatialQuery query) => nameof(SpatialQuery);

        public string Visit(AndQuery query) => nameof(AndQuery);

        public string Visit(OrQuery query) => nameof(OrQuery);

        public string Visit(NotQuery query) => nameof(NotQuery);
    }
}
