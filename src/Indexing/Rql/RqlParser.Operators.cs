namespace Folio.Indexing.Rql;

/// <summary>
/// The seeds' operators and clauses beyond the basic grammar: <c>exact(…)</c>, <c>regex(f, 'pattern')</c>,
/// <c>f all in (…)</c>, <c>search(f, 'words', and|or)</c>, a bare <c>true</c>, <c>select distinct</c>,
/// <c>order by random(['seed'])</c> and <c>as alphanumeric</c>, <c>include timings()</c> and <c>include explanations()</c>.
/// </summary>
public sealed partial class RqlParser
{
    private bool _distinct;
    private int _distinctAt;
    private bool _timings;
    private bool _explanations;

    /// <summary>Whether the query asked for timings or explanations (an include clause was there, if without paths).</summary>
    private bool IncludesDiagnostics => _timings || _explanations;

    /// <summary>A bare <c>true</c> where a condition starts (not the start of <c>true = …</c>, a field named true).</summary>
    private bool AtBareTrue() =>
        Current.IsKeyword("true") && Peek(1).Kind != RqlTokenKind.Operator && !Peek(1).IsKeyword("between") && !Peek(1).IsKeyword("in") && !Peek(1).IsKeyword("all");

    /// <summary><c>exact(condition)</c>: any condition but another exact(), a search or a boost, its text compared case-sensitively.</summary>
    private RqlExact ParseExact()
    {
        var start = Current.Position;
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var innerStart = Current.Position;
        var inner = ParseOr();
        if (ContainsAny(inner, static e => e is RqlExact or RqlBoost or RqlFuzzy or RqlProximity or RqlFunction { Name: "search" or "lucene" }))
            throw new RqlParseException("exact() takes comparisons, in, between, startsWith, endsWith, regex and exists, not search, lucene, fuzzy, proximity, boost or another exact()", innerStart);
        Expect(RqlTokenKind.CloseParen, "')' to close exact()");
        return new RqlExact(inner, start);
    }

    private static bool ContainsAny(RqlExpression expression, Func<RqlExpression, bool> test) => expression switch
    {
        _ when test(expression) => true,
        RqlBinary binary => ContainsAny(binary.Left, test) || ContainsAny(binary.Right, test),
        RqlNot not => ContainsAny(not.Inner, test),
        _ => false,
    };

    /// <summary>The rest of <c>field all in (v1, v2, …)</c> after the field.</summary>
    private RqlAllIn ParseAllIn(RqlField field)
    {
        _index += 2;
        Expect(RqlTokenKind.OpenParen, "'(' to open the list of values");
        var values = new List<RqlValue>();
        if (Current.Kind != RqlTokenKind.CloseParen)
        {
            do
                values.Add(ParseValue());
            while (Take(RqlTokenKind.Comma));
        }
        Expect(RqlTokenKind.CloseParen, "')' to close the list of values");
        return new RqlAllIn(field, values);
    }

    /// <summary>The optional third argument of <c>search(field, text, and|or)</c>: whether every word must match.</summary>
    private bool ParseSearchOperator()
    {
        if (Current.IsKeyword("and") || Current.IsKeyword("or"))
        {
            var all = Current.IsKeyword("and");
            _index++;
            return all;
        }
        throw Error($"Expected and or or as the third argument of search() but found {Current.Describe()}");
    }

    /// <summary>
    /// After <c>select</c>: takes <c>distinct</c> when it starts the projections (not a field named distinct, which a comma,
    /// <c>as</c> or the clause's end would follow).
    /// </summary>
    private void TakeDistinct()
    {
        if (!Current.IsKeyword("distinct"))
            return;
        var next = Peek(1);
        if (next.Kind is RqlTokenKind.Comma or RqlTokenKind.End || next.IsKeyword("as") || IsClauseKeyword(next))
            return;
        _distinctAt = Current.Position;
        _index++;
        _distinct = true;
    }

    /// <summary>
    /// What the new clauses cannot be combined with: distinct needs projected fields and no group by (whose rows are
    /// distinct already) or facets; random() is the only key of its order; alphanumeric and score() do not mix.
    /// </summary>
    private void CheckClauses(List<RqlField> groupBy, List<RqlProjection> select, List<RqlFacet> facets, List<RqlOrder> orderBy)
    {
        if (_distinct && groupBy.Count > 0)
            throw new RqlParseException("select distinct cannot be used with group by: the groups are distinct already", _distinctAt);
        if (_distinct && (facets.Count > 0 || select.Count == 0))
            throw new RqlParseException("select distinct needs the fields to project (select distinct Country, City), not facets", _distinctAt);
        var random = orderBy.Find(static o => o.Type == RqlOrderType.Random);
        if (random is not null && orderBy.Count > 1)
            throw new RqlParseException("random() must be the only key of order by", random.Position);
        var alphanumeric = orderBy.Find(static o => o.Type == RqlOrderType.AlphaNumeric);
        var score = orderBy.Find(static o => o.Field is null && o.Type != RqlOrderType.Random);
        if (alphanumeric is not null && score is not null)
            throw new RqlParseException("An order by with an alphanumeric key cannot also order by score()", score.Position);
        if (alphanumeric is not null && groupBy.Count > 0)
            throw new RqlParseException("A group by query cannot order by alphanumeric", alphanumeric.Position);
        if (groupBy.Count > 0)
            return;
        foreach (var projection in select)
        {
            if (projection.Field.IsKey)
                throw new RqlParseException("key() is the group of a group by query (from Orders group by Company select key(), count())", projection.Field.Position);
            // Without a group the function would have nothing to aggregate, and read as a field it answered each document's id or value.
            if (projection.Field.Aggregate is not null)
                throw new RqlParseException($"{projection.Field} aggregates the groups of a group by query (from Orders group by Company select key(), {projection.Field}); a query without group by selects fields", projection.Field.Position);
        }
        var key = orderBy.Find(static o => o.Field is { IsKey: true });
        if (key is not null)
            throw new RqlParseException("key() is the group of a group by query; order by a field instead", key.Position);
        var aggregate = orderBy.Find(static o => o.Field is { Aggregate: not null });
        if (aggregate is not null)
            throw new RqlParseException($"{aggregate.Field} aggregates the groups of a group by query; order by a field instead", aggregate.Position);
    }

    /// <summary><c>random()</c> or <c>random('seed')</c> as an order by key.</summary>
    private RqlOrder ParseRandomOrder()
    {
        var start = Current.Position;
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        RqlValue? seed = null;
        if (Current.Kind != RqlTokenKind.CloseParen)
            seed = ParseValue();
        Expect(RqlTokenKind.CloseParen, "')' to close random()");
        if (Current.IsKeyword("as"))
            throw Error("random() orders by a shuffle; it takes no 'as' type");
        var descending = TakeKeyword("desc") || TakeKeyword("descending");
        if (!descending)
            _ = TakeKeyword("asc") || TakeKeyword("ascending");
        return new RqlOrder(null, RqlOrderType.Random, descending) { Seed = seed, Position = start };
    }

    /// <summary>Whether the current token starts <c>timings()</c> or <c>explanations()</c> in an include clause.</summary>
    private bool AtIncludeDiagnostics() =>
        (Current.IsKeyword("timings") || Current.IsKeyword("explanations")) && Peek(1).Kind == RqlTokenKind.OpenParen;

    /// <summary><c>timings()</c> or <c>explanations()</c> in an include clause.</summary>
    private void ParseIncludeDiagnostics()
    {
        var name = Current;
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        if (Current.Kind != RqlTokenKind.CloseParen)
            throw Error($"{name.Text}() takes no arguments, but found {Current.Describe()}");
        _index++;
        if (name.IsKeyword("timings"))
            _timings = true;
        else
            _explanations = true;
    }
}
