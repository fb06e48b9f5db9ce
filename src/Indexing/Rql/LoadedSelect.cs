using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>
/// <c>load o.Company as c select c.Name as Company, Freight</c>: a select of plain fields that reads loaded documents, as
/// the seeds' RQL allows without JavaScript. It is written as the JavaScript projection it means, each field read by the
/// projection's path helper with the rules of a plain projection (arrays on the way walked, a missing value null), so
/// that it runs where <c>select { … }</c> runs: after the index, with the loaded documents added to the includes.
/// </summary>
internal static class LoadedSelect
{
    /// <summary>The projection's path helper: the value at names in a value, as <see cref="FieldPath.Select"/> gives it.</summary>
    public const string PathFunction = "__folio_path";

    /// <summary>The helper's definition, glued before every projection.</summary>
    public const string PathHelper =
        "function " + PathFunction + "(v, names, marks) {\n" +
        "  var out = [], walked = false, last = names.length - 1;\n" +
        "  function has(x, n) { return x !== null && typeof x === 'object' && !Array.isArray(x) && Object.prototype.hasOwnProperty.call(x, n); }\n" +
        "  function size(e, d) {\n" +
        "    var n = names[d];\n" +
        "    if (d !== last || d === 0 || marks[d] || (n !== 'Count' && n !== 'count' && n !== 'Length' && n !== 'length')) return undefined;\n" +
        "    if (typeof e === 'string') return e.length;\n" +
        "    if (Array.isArray(e)) return marks[d - 1] || e.some(function (x) { return has(x, n); }) ? undefined : e.length;\n" +
        "    if (e !== null && typeof e === 'object' && !has(e, n)) return Object.keys(e).length;\n" +
        "    return undefined;\n" +
        "  }\n" +
        "  function collect(e, d, item) {\n" +
        "    var s = item ? undefined : size(e, d);\n" +
        "    if (s !== undefined) { out.push(s); return; }\n" +
        "    var atEnd = d === names.length;\n" +
        "    if (Array.isArray(e) && (!atEnd || (d > 0 && marks[d - 1]))) { walked = true; for (var i = 0; i < e.length; i++) collect(e[i], d, true); return; }\n" +
        "    if (atEnd) { out.push(e === undefined ? null : e); return; }\n" +
        "    if (has(e, names[d])) collect(e[names[d]], d + 1, false);\n" +
        "  }\n" +
        "  collect(v, 0, false);\n" +
        "  return walked ? out : (out.length > 0 ? out[0] : null);\n" +
        "}\n";

    /// <summary>
    /// The object literal a select of <paramref name="projections"/> under <paramref name="loads"/> stands for; throws for
    /// a select that is not plain fields and <c>id()</c>.
    /// </summary>
    public static string ObjectLiteral(IReadOnlyList<RqlProjection> projections, IReadOnlyList<RqlLoad> loads, string? alias)
    {
        var text = new StringBuilder("{ ");
        var names = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < projections.Count; i++)
        {
            var projection = projections[i];
            var field = projection.Field;
            if (field.Aggregate is not null)
                throw new RqlParseException($"{field} cannot be selected beside loaded documents; a query with load selects fields, id() or an object literal (select {{ … }})", field.Position);
            if (i > 0)
                text.Append(", ");
            var name = NameOf(projection, loads, alias);
            if (!names.Add(name))
                throw new RqlParseException($"Two fields of the select are named '{name}'; name one with as", field.Position);
            if (field.IsId)
            {
                text.Append(JsonSerializer.Serialize(name)).Append(": id(this)");
                continue;
            }
            var segments = field.Path!.Segments;
            var root = "this";
            var start = 0;
            if (FromAlias(segments, loads, alias))
            {
                // c.Name reads the loaded c; c or o alone is the whole document.
                root = segments[0].Name == alias ? "this" : segments[0].Name;
                start = 1;
            }
            text.Append(JsonSerializer.Serialize(name)).Append(": ").Append(PathFunction).Append('(').Append(root).Append(", [");
            for (var s = start; s < segments.Count; s++)
            {
                if (s > start)
                    text.Append(", ");
                text.Append(JsonSerializer.Serialize(segments[s].Name));
            }
            text.Append("], [");
            for (var s = start; s < segments.Count; s++)
                text.Append(s > start ? ", " : "").Append(segments[s].MarksArray ? "true" : "false");
            text.Append("])");
        }
        return text.Append(" }").ToString();
    }

    /// <summary>Whether the path starts with a loaded document's alias, or is the queried document's alias alone.</summary>
    private static bool FromAlias(IReadOnlyList<PathSegment> segments, IReadOnlyList<RqlLoad> loads, string? alias) =>
        !segments[0].MarksArray && (IsLoadAlias(segments[0].Name, loads) || (segments.Count == 1 && segments[0].Name == alias));

    /// <summary>The property a projection answers under: its alias, or for a loaded document's field the path in that document.</summary>
    private static string NameOf(RqlProjection projection, IReadOnlyList<RqlLoad> loads, string? alias)
    {
        var field = projection.Field;
        if (field.Path is not { } path || projection.Alias != field.Name || path.Segments.Count < 2 || !FromAlias(path.Segments, loads, alias))
            return projection.Alias;
        return new RqlField(FieldPath.FromSegments([.. path.Segments.Skip(1)]), field.Position).Name;
    }

    private static bool IsLoadAlias(string name, IReadOnlyList<RqlLoad> loads)
    {
        foreach (var load in loads)
        {
            if (string.Equals(load.Alias, name, StringComparison.Ordinal))
                return true;
        }
        return false;
    }
}
