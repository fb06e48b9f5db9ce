using System.Text.RegularExpressions;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying;

/// <summary>
/// <c>exact(…)</c>, <c>regex()</c> and <c>all in</c>. Case-sensitive text needs a field that keeps it: an auto index keeps
/// a twin <c>exact(Path)</c> of each path a query compares exactly (or with a regex), and a static index's field must
/// be declared <c>"CaseSensitive": true</c>.
/// </summary>
internal sealed partial class QueryCompiler
{
    /// <summary>How long one regular expression may run on one value (it runs without backtracking, so this is a guard, not a limit anyone should meet).</summary>
    private static readonly TimeSpan RegexTimeout = TimeSpan.FromSeconds(1);

    // Where the exact() being compiled starts, while its condition compiles; null outside exact().
    private int? _exactAt;

    /// <summary>The paths a collection query compares case-sensitively (inside <c>exact()</c>) or with <c>regex()</c>, which an auto index keeps a case-sensitive twin of.</summary>
    public static List<FieldPath> CaseSensitiveFieldsOf(RqlQuery query)
    {
        var paths = new List<FieldPath>();
        if (query.Where is not null)
            CollectCaseSensitive(query.Where, inExact: false, paths);
        return paths;
    }

    private static void CollectCaseSensitive(RqlExpression expression, bool inExact, List<FieldPath> paths)
    {
        switch (expression)
        {
            case RqlBinary binary:
                CollectCaseSensitive(binary.Left, inExact, paths);
                CollectCaseSensitive(binary.Right, inExact, paths);
                break;
            case RqlNot not:
                CollectCaseSensitive(not.Inner, inExact, paths);
                break;
            case RqlBoost boost:
                CollectCaseSensitive(boost.Inner, inExact, paths);
                break;
            case RqlExact exact:
                CollectCaseSensitive(exact.Inner, inExact: true, paths);
                break;
            case RqlIntersect intersect:
                foreach (var part in intersect.Parts)
                    CollectCaseSensitive(part, inExact, paths);
                break;
            case RqlFunction { Name: "regex", Field.Path: { } regexPath }:
                paths.Add(regexPath);
                break;
            case RqlFunction { Name: "lucene", Exact: true, Field.Path: { } lucenePath } lucene:
                CollectLuceneFields(lucene, lucenePath, paths);
                break;
            case RqlFunction { Name: not "search", Field.Path: { } path } when inExact:
                paths.Add(path);
                break;
            case RqlComparison { Field.Path: { } path } when inExact:
                paths.Add(path);
                break;
            case RqlBetween { Field.Path: { } path } when inExact:
                paths.Add(path);
                break;
            case RqlIn { Field.Path: { } path } when inExact:
                paths.Add(path);
                break;
            case RqlAllIn { Field.Path: { } path } when inExact:
                paths.Add(path);
                break;
        }
    }

    private Query Exact(RqlExact exact)
    {
        var outer = _exactAt;
        _exactAt = exact.Position;
        try
        {
            return CompileExpression(exact.Inner);
        }
        finally
        {
            _exactAt = outer;
        }
    }

    private Query AllIn(RqlAllIn allIn)
    {
        var all = ParameterValues.ResolveAll(allIn.Values, parameters);
        if (all.Count == 0)
            return MatchAllQuery.Instance;
        var every = new List<Query>(all.Count);
        foreach (var resolved in all)
            every.Add(new TermQuery(IndexField(allIn.Field, IsNumber(resolved)), resolved));
        return every.Count == 1 ? every[0] : new AndQuery(every);
    }

    /// <summary>
    /// <c>regex(F, 'pattern')</c> over the field's text as the index keeps it: an auto index's case-sensitive twin (the
    /// text as written), a static field as declared (ignoring case where the field folds it).
    /// </summary>
    private RegexQuery Regex(RqlFunction function, string pattern)
    {
        string field;
        bool caseSensitive;
        if (function.Field.Path is null)
        {
            (field, caseSensitive) = (IndexDefinition.IdField, false);
        }
        else if (definition.IsAuto && definition.Reduce is null)
        {
            (field, caseSensitive) = (AutoIndexNaming.ExactFieldName(function.Field.Path), true);
        }
        else
        {
            field = IndexField(function.Field, numeric: false);
            var defined = definition.Fields[field];
            if (defined.Search || defined.Type is IndexFieldType.Long or IndexFieldType.Double)
                throw new RqlParseException($"regex() reads a field's whole text; '{field}' of index '{definition.Name}' is {(defined.Search ? "full-text" : "numeric")}", function.Field.Position);
            caseSensitive = defined.CaseSensitive;
        }
        var options = RegexOptions.CultureInvariant | RegexOptions.NonBacktracking | (caseSensitive ? RegexOptions.None : RegexOptions.IgnoreCase);
        var at = function.Argument!.Position;
        try
        {
            return new RegexQuery(field, new Regex(pattern, options, RegexTimeout));
        }
        catch (NotSupportedException e)
        {
            throw new RqlParseException($"regex() runs without backtracking, so '{pattern}' cannot be used: {e.Message}", at);
        }
        catch (ArgumentException e)
        {
            throw new RqlParseException($"'{pattern}' is not a valid regular expression: {e.Message}", at);
        }
    }

    /// <summary>The case-sensitive field <c>exact()</c> compares <paramref name="field"/>'s text in.</summary>
    private string CaseSensitiveField(RqlField field, int exactAt)
    {
        if (definition.IsAuto && definition.Reduce is null)
            return AutoIndexNaming.ExactFieldName(field.Path!);
        if (!definition.Fields.TryGetValue(field.Name, out var defined))
            throw new QueryException($"Index '{definition.Name}' has no field '{field.Name}'.");
        if (!defined.CaseSensitive && defined.Type is not (IndexFieldType.Long or IndexFieldType.Double))
            throw new RqlParseException($"exact() compares text case-sensitively, but the field '{field.Name}' of index '{definition.Name}' folds case; declare it \"CaseSensitive\": true", exactAt);
        return field.Name;
    }
}
