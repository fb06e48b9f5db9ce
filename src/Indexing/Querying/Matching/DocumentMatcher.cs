using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying.Matching;

/// <summary>
/// Decides whether one document matches a query's <c>where</c> without an index: what a data subscription asks of each
/// document of its collection as it is written. It answers as an auto index over the document would: strings compare
/// ignoring case, numbers by value, a path through an array matches when any element does, <c>= null</c> matches an
/// explicit null, and <c>!=</c> also matches a missing field.
/// </summary>
public sealed class DocumentMatcher
{
    private readonly MatchNode? _where;

    private DocumentMatcher(string collection, MatchNode? where, IReadOnlyList<FieldPath> includes)
    {
        Collection = collection;
        _where = where;
        Includes = includes;
    }

    /// <summary>The collection the query reads.</summary>
    public string Collection { get; }

    /// <summary>The paths of the query's <c>include</c>: the documents they name travel with each batch.</summary>
    public IReadOnlyList<FieldPath> Includes { get; }

    /// <summary>
    /// Compiles <paramref name="rql"/>, which must read a collection and may only filter it (<c>from Orders where …</c>);
    /// a <see cref="QueryException"/> or <see cref="RqlParseException"/> says what it cannot be. Its <c>include</c> paths are kept
    /// in <see cref="Includes"/>.
    /// </summary>
    /// <param name="rql">The query text.</param>
    /// <param name="parameters">Values of its <c>$parameters</c>, or null.</param>
    public static DocumentMatcher Compile(string rql, JsonElement? parameters = null)
    {
        RqlQuery query = RqlParser.Parse(rql);
        if (query.From.Collection is not { } collection)
            throw new QueryException("A subscription reads a collection (from Orders …), not an index.");
        if (query.GroupBy.Count > 0 || query.Facets.Count > 0 || query.Suggestions.Count > 0 || query.OrderBy.Count > 0 || query.Select.Count > 0 || query.Limit is not null || query.Offset is not null)
            throw new QueryException("A subscription delivers whole documents in write order: its query may only filter (from Orders where …), without group by, order by, select, facets or limit.");
        if (query.FilterScript is not null || query.FilterLimit is not null)
            throw new QueryException("A subscription checks every document it delivers: its query may filter with where or filter, but not with a declared function or filter_limit.");
        // A filter is what where is here: both are checked on each document, without an index.
        var condition = query.Where is null ? query.Filter : query.Filter is null ? query.Where : new RqlBinary(true, query.Where, query.Filter);
        return new DocumentMatcher(collection, condition is null ? null : MatchNode.Compile(condition, parameters), query.Include);
    }

    /// <summary>
    /// A matcher that matches nothing, for a stored query this build no longer compiles: its subscription stays listed,
    /// disabled, until it is given a query that runs or deleted, rather than keeping its database from opening.
    /// </summary>
    /// <param name="collection">The collection the stored query named, if it could be read; else empty.</param>
    public static DocumentMatcher Nothing(string collection) => new(collection, new MatchNode.Never(), []);

    /// <summary>Whether every document of the collection matches (the query has no <c>where</c> and no <c>filter</c>), so none needs reading.</summary>
    public bool MatchesEverything => _where is null;

    /// <summary>Whether the document <paramref name="id"/> with body <paramref name="document"/> matches.</summary>
    public bool Matches(string id, JsonElement document) => _where is null || _where.Matches(id, document);
}
