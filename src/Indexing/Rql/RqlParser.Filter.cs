namespace Folio.Indexing.Rql;

/// <summary>
/// <c>filter condition [filter_limit n]</c> after where: the seeds' exploration queries. The condition is a where
/// condition, or a call of a declared function (<c>filter titlePrefix(e, $prefix)</c>); <c>filter_limit</c> may also come
/// last, after limit.
/// </summary>
public sealed partial class RqlParser
{
    private RqlExpression? _filter;
    private RqlScript? _filterScript;
    private RqlValue? _filterLimit;

    private void ParseFilter()
    {
        if (!TakeKeyword("filter"))
            return;
        if (TryParseDeclaredFunctionCall(out var call))
            _filterScript = call;
        else
            _filter = ParseOr();
        TryParseFilterLimit();
    }

    private void TryParseFilterLimit()
    {
        if (_filterLimit is not null || !Current.IsKeyword("filter_limit"))
            return;
        if (_filter is null && _filterScript is null)
            throw Error("filter_limit limits how many documents a filter checks; the query has no filter");
        _index++;
        _filterLimit = ParseValue();
    }

    private RqlQuery WithFilter(RqlQuery query)
    {
        if (_filter is null && _filterScript is null)
            return query;
        if (query.GroupBy.Count > 0 || query.Facets.Count > 0 || query.Suggestions.Count > 0)
            throw new RqlParseException("filter checks the documents a query retrieves; it cannot be combined with group by, facets or suggestions", _tokens[0].Position);
        return query with { Filter = _filter, FilterScript = _filterScript, FilterLimit = _filterLimit };
    }
}
