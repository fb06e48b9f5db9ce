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
    private int _filterAt;

    private void ParseFilter()
    {
        if (!Current.IsKeyword("filter"))
            return;
        _filterAt = Current.Position;
        _index++;
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
            throw new RqlParseException("filter checks the documents a query retrieves; it cannot be combined with group by, facets or suggestions", _filterAt);
        if (_filter is not null && FieldOfLoad(_filter) is { } loaded)
            throw new RqlParseException($"filter checks the queried document; the loaded '{loaded.Path!.Segments[0].Name}' is not there to read (filter before load)", loaded.Position);
        return query with { Filter = _filter, FilterScript = _filterScript, FilterLimit = _filterLimit };
    }

    /// <summary>A field of the condition that starts with a load's alias, or null.</summary>
    private RqlField? FieldOfLoad(RqlExpression expression)
    {
        switch (expression)
        {
            case RqlBinary binary:
                return FieldOfLoad(binary.Left) ?? FieldOfLoad(binary.Right);
            case RqlNot not:
                return FieldOfLoad(not.Inner);
            case RqlBoost boost:
                return FieldOfLoad(boost.Inner);
            case RqlExact exact:
                return FieldOfLoad(exact.Inner);
            case RqlIntersect intersect:
                foreach (var part in intersect.Parts)
                {
                    if (FieldOfLoad(part) is { } found)
                        return found;
                }
                return null;
            case RqlComparison comparison:
                return Loaded(comparison.Field);
            case RqlBetween between:
                return Loaded(between.Field);
            case RqlIn @in:
                return Loaded(@in.Field);
            case RqlAllIn allIn:
                return Loaded(allIn.Field);
            case RqlFunction function:
                return Loaded(function.Field);
            default:
                return null;
        }
    }

    private RqlField? Loaded(RqlField field)
    {
        if (field.Path is not { Segments.Count: > 1 } path)
            return null;
        foreach (var load in _loads)
        {
            if (load.Alias == path.Segments[0].Name)
                return field;
        }
        return null;
    }
}
