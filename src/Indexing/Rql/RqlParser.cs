using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>
/// Parses Folio's RQL subset:
/// <code>
/// from Collection | from index 'Name'
/// [where condition] [group by field, … [where condition]] [filter condition [filter_limit n]]   condition: or/and/not, parentheses, field (= != &lt; &lt;= &gt; &gt;=) value,
///                     field between a and b, field in (…), search(f, 'text'), startsWith(f, 'p'),
///                     endsWith(f, 's'), exists(f), id() = 'x', boost(condition, factor), fuzzy(f = 'v', factor),
///                     proximity(search(f, 'words'), slop), exact(condition), regex(f, 'pattern'), f all in (…),
///                     search(f, 'words', and|or), true
/// [order by key [as long|double|string|alphanumeric] [asc|desc], …]   (key: a field, score(), random() or random('seed'))
/// [select [distinct] f [as alias], … | select facet(f), facet(range, …), … (range: f &lt; v, f between a and b, f &gt;= a and f &lt; b) | select suggest(f, 'word' [, $options]) [as alias], …]   (with group by: count(), sum(f), min(f), max(f), avg(f) as fields)
/// [include path | highlight(f, length, count [, $options]) | timings() | explanations(), …] [limit n [offset m] | limit m, n] [offset m] (include may also follow limit)
/// </code>
/// Wherever the grammar names a field (left of a comparison, first argument of a function or a facet,
/// order by, select, include) a quoted name is a field's one property, whatever it holds:
/// <c>where 'Major Genre' = 'Drama'</c> compares the property <c>Major Genre</c> with the value
/// <c>Drama</c>; names join into paths with '.' and <c>[]</c> (<c>Address.'e-mail'</c>). Include keeps one
/// exception, see <see cref="ParseIncludePath"/>. The parsing is split by clause: the where clause, the
/// clauses after it, and field references.
/// </summary>
public sealed partial class RqlParser
{
    private static readonly string[] ClauseKeywords = ["where", "group", "order", "select", "include", "limit", "offset"];

    private readonly string _text;
    private readonly List<RqlToken> _tokens;
    private int _index;

    private RqlParser(string text)
    {
        _text = text;
        _tokens = RqlLexer.Tokenize(text);
    }

    /// <summary>Parses <paramref name="text"/>; throws <see cref="RqlParseException"/> with the position and what was expected.</summary>
    public static RqlQuery Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return new RqlParser(text).ParseQuery();
    }

    private RqlToken Current => _tokens[_index];

    private RqlQuery ParseQuery()
    {
        ParseDeclarations();
        ExpectKeyword("from");
        RqlSource source;
        if (Current.IsKeyword("index"))
        {
            _index++;
            source = new RqlSource(null, ExpectString("an index name in quotes"));
        }
        else
        {
            source = new RqlSource(ExpectName("a collection name"), null);
        }
        ParseSourceAlias();

        RqlExpression? where = null;
        var orderBy = new List<RqlOrder>();
        var select = new List<RqlProjection>();
        var facets = new List<RqlFacet>();
        var include = new List<FieldPath>();
        var highlights = new List<RqlHighlight>();
        var suggestions = new List<RqlSuggestion>();
        RqlValue? limit = null, offset = null;

        var groupBy = new List<RqlField>();
        if (TakeKeyword("where"))
            where = ParseOr();
        if (TakeKeyword("group"))
        {
            ExpectKeyword("by");
            do
                groupBy.Add(ParseGroupField());
            while (Take(RqlTokenKind.Comma));
            // The seeds' RQL writes the where of a group by query after it; both places mean the same.
            if (TakeKeyword("where"))
                where = where is null ? ParseOr() : new RqlBinary(true, where, ParseOr());
        }
        ParseFilter();
        if (TakeKeyword("order"))
        {
            ExpectKeyword("by");
            do
                orderBy.Add(ParseOrder());
            while (Take(RqlTokenKind.Comma));
        }
        ParseLoads();
        if (TakeKeyword("select"))
        {
            TakeDistinct();
            if (!TryParseScriptSelect())
                ParseSelect(select, facets, suggestions);
        }

        TryParseUpdate();
        if (TakeKeyword("include"))
            ParseIncludes(include, highlights);
        if (TakeKeyword("limit"))
        {
            limit = ParseValue();
            if (Take(RqlTokenKind.Comma))
            {
                offset = limit;
                limit = ParseValue();
            }
            else if (TakeKeyword("offset"))
            {
                offset = ParseValue();
            }
        }
        if (offset is null && TakeKeyword("offset"))
            offset = ParseValue();
        // RavenDB users write include after limit as often as before it.
        if (include.Count == 0 && highlights.Count == 0 && _compareExchangeIncludes.Count == 0 && !IncludesDiagnostics && TakeKeyword("include"))
            ParseIncludes(include, highlights);
        TryParseFilterLimit();
        if (Current.Kind != RqlTokenKind.End)
            throw Error($"Expected where, group by, order by, select, include, limit or the end of the query but found {Current.Describe()}");
        CheckClauses(groupBy, select, facets, orderBy);
        return WithFilter(WithScripts(new RqlQuery(source, where, orderBy, select, facets, include, limit, offset)
        {
            GroupBy = groupBy,
            Highlights = highlights,
            Suggestions = suggestions,
            Distinct = _distinct,
            IncludeTimings = _timings,
            IncludeExplanations = _explanations,
            CompareExchangeIncludes = _compareExchangeIncludes,
            UsesCompareExchange = _usesCompareExchange,
        }));
    }

    private RqlToken Peek(int ahead) => _tokens[Math.Min(_index + ahead, _tokens.Count - 1)];

    private bool Take(RqlTokenKind kind)
    {
        if (Current.Kind != kind)
            return false;
        _index++;
        return true;
    }

    private bool TakeKeyword(string keyword)
    {
        if (!Current.IsKeyword(keyword))
            return false;
        _index++;
        return true;
    }

    private void Expect(RqlTokenKind kind, string what)
    {
        if (!Take(kind))
            throw Error($"Expected {what} but found {Current.Describe()}");
    }

    private void ExpectKeyword(string keyword)
    {
        if (!TakeKeyword(keyword))
            throw Error($"Expected '{keyword}' but found {Current.Describe()}");
    }

    private string ExpectString(string what)
    {
        if (Current.Kind != RqlTokenKind.String)
            throw Error($"Expected {what} but found {Current.Describe()}");
        return _tokens[_index++].Text;
    }

    /// <summary>A name that is not a field: a collection or an alias, bare or quoted as one string.</summary>
    private string ExpectName(string what)
    {
        if (Current.Kind is not (RqlTokenKind.Identifier or RqlTokenKind.String) || IsClauseKeyword(Current))
            throw Error($"Expected {what} but found {Current.Describe()}");
        return _tokens[_index++].Text;
    }

    private static bool IsClauseKeyword(RqlToken token)
    {
        foreach (var keyword in ClauseKeywords)
        {
            if (token.IsKeyword(keyword))
                return true;
        }
        return false;
    }

    private RqlParseException Error(string message) => new(message, Current.Position);
}
