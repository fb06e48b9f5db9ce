using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The query runner's planning steps without an engine: group by planning, then the where clause, the distance order and
/// the sort compiled against the auto index a collection query would get (its fields as <see cref="QueryCompiler"/>
/// collects them), so the compiler sees every field the query names.
/// </summary>
internal static class RqlCompilation
{
    /// <summary>Plans and compiles <paramref name="query"/> with <paramref name="parameters"/> bound.</summary>
    /// <exception cref="RqlParseException">The query is refused while planning (a regex that does not compile, a misplaced function).</exception>
    /// <exception cref="IndexDefinitionException">The collection's auto index cannot be defined (its name holds control characters).</exception>
    /// <exception cref="QueryException">The query parses but cannot run (the runner answers 400).</exception>
    /// <exception cref="FieldPathException">A field's path is invalid (the runner answers 400).</exception>
    public static void Compile(RqlQuery query, JsonElement? parameters)
    {
        if (query.GroupBy.Count > 0)
        {
            // A group by query runs on an auto map/reduce index; planning it is what can refuse it here.
            GroupByPlan.Create(query);
            return;
        }

        var compiler = new QueryCompiler(AutoIndexFor(query), parameters);
        compiler.Compile(query.Where);
        var distance = query.Facets.Count == 0 ? SpatialDistanceOrder.Create(query, compiler) : null;
        if (distance is null)
            compiler.Sort(query.OrderBy);
    }

    private static IndexDefinition AutoIndexFor(RqlQuery query)
    {
        var (exact, search) = QueryCompiler.FieldsOf(query);
        var fields = new Dictionary<string, IndexFieldDefinition>(StringComparer.Ordinal);
        foreach (var field in exact)
            fields.TryAdd(AutoIndexNaming.FieldName(field), new IndexFieldDefinition(field, IndexFieldType.Auto));
        foreach (var field in search)
            fields.TryAdd(AutoIndexNaming.SearchFieldName(field), new IndexFieldDefinition(field, Search: true));
        foreach (var field in QueryCompiler.CaseSensitiveFieldsOf(query))
            fields.TryAdd(AutoIndexNaming.ExactFieldName(field), new IndexFieldDefinition(field, CaseSensitive: true));
        foreach (var source in QueryCompiler.SpatialFieldsOf(query))
            fields.TryAdd(AutoIndexNaming.SpatialFieldName(source), IndexFieldDefinition.ForSpatial(source));
        // A definition needs a field; a query naming none is answered from any index of its collection.
        if (fields.Count == 0)
            fields.Add("Name", new IndexFieldDefinition(FieldPath.Parse("Name"), IndexFieldType.Auto));
        string collection = query.From.Collection ?? "Fuzzed";
        var names = new List<string>(fields.Keys);
        names.Sort(StringComparer.Ordinal);
        return new IndexDefinition(AutoIndexNaming.IndexName(collection, names), [collection], fields);
    }
}
