using Acornima;
using Acornima.Ast;
using Folio.Indexing.Definitions;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>
/// What a JavaScript index's program reveals before it runs: the collections its <c>map('Coll', …)</c> calls name,
/// and the names of the fields its maps can return. Folio's indexes declare their fields up front, so the names are
/// read from the program's object literals (<c>{ name: …, count: 1 }</c>), from <c>{ $name: 'x', $value: … }</c> and
/// <c>createField('x', …)</c> with a literal name, and whether a field is spatial (its value is
/// <c>createSpatialField(…)</c>) or full text (<c>$options: { indexing: 'Search' }</c>). A name only computed at run
/// time (<c>createField(attr.name, …)</c>) cannot be declared, and its values are not indexed.
/// </summary>
public sealed class JavaScriptMapShape
{
    private JavaScriptMapShape()
    {
    }

    /// <summary>The collections the maps read, in written order.</summary>
    public List<string> Collections { get; } = [];

    /// <summary>Field name → how the program gives it, in the order first seen.</summary>
    public Dictionary<string, JavaScriptFieldShape> Fields { get; } = new(StringComparer.Ordinal);

    /// <summary>Reads <paramref name="program"/>.</summary>
    /// <exception cref="IndexDefinitionException">It is not JavaScript.</exception>
    public static JavaScriptMapShape Read(string program)
    {
        Script script;
        try
        {
            script = new Parser().ParseScript(program);
        }
        catch (ParseErrorException e)
        {
            throw new IndexDefinitionException($"The map is not JavaScript: {e.Description} (line {e.LineNumber}, column {e.Column}).");
        }

        var shape = new JavaScriptMapShape();
        shape.Visit(script);
        return shape;
    }

    private void Visit(Node node)
    {
        switch (node)
        {
            case CallExpression call when Callee(call) == "map" && call.Arguments.Count == 2 && call.Arguments[0] is StringLiteral collection:
                if (!Collections.Contains(collection.Value, StringComparer.OrdinalIgnoreCase))
                    Collections.Add(collection.Value);
                Visit(call.Arguments[1]);
                return;
            case CallExpression call when Callee(call) == "createField" && call.Arguments.Count >= 2:
                if (call.Arguments[0] is StringLiteral fieldName)
                    Add(fieldName.Value, SpatialOf(call.Arguments[1]), call.Arguments.Count > 2 && SearchOf(call.Arguments[2]));
                Visit(call.Arguments[1]);
                return;
            case ObjectExpression obj when Property(obj, "$name") is { } dynamicName:
                var value = Property(obj, "$value");
                if (dynamicName is StringLiteral literal)
                    Add(literal.Value, value is null ? JavaScriptSpatial.None : SpatialOf(value), Property(obj, "$options") is { } options && SearchOf(options));
                if (value is not null)
                    Visit(value);
                return;
            case ObjectExpression obj:
                foreach (var item in obj.Properties)
                {
                    if (item is ObjectProperty { Computed: false } property && KeyOf(property.Key) is { } key)
                        Add(key, SpatialOf(property.Value), search: false);
                }
                break;
        }

        foreach (var child in node.ChildNodes)
            Visit(child);
    }

    private void Add(string name, JavaScriptSpatial spatial, bool search)
    {
        if (name.Length == 0 || name.Length > IndexDefinition.MaxNameLength || name.StartsWith('$') || name == IndexDefinition.IdField
            || name.EndsWith(IndexDefinition.NumericSuffix, StringComparison.Ordinal) || name.StartsWith("search(", StringComparison.Ordinal))
            return;
        Fields.TryGetValue(name, out var known);
        Fields[name] = new JavaScriptFieldShape(
            known.Spatial != JavaScriptSpatial.None ? known.Spatial : spatial,
            known.Search || search);
    }

    private static string? Callee(CallExpression call) => call.Callee switch
    {
        Identifier identifier => identifier.Name,
        _ => null,
    };

    private static string? KeyOf(Node key) => key switch
    {
        Identifier identifier => identifier.Name,
        StringLiteral text => text.Value,
        _ => null,
    };

    private static Node? Property(ObjectExpression obj, string name)
    {
        foreach (var item in obj.Properties)
        {
            if (item is ObjectProperty { Computed: false } property && KeyOf(property.Key) == name)
                return property.Value;
        }
        return null;
    }

    private static JavaScriptSpatial SpatialOf(Node value) => value is CallExpression call && Callee(call) is "createSpatialField" or "CreateSpatialField"
        ? call.Arguments.Count == 1 ? JavaScriptSpatial.Wkt : JavaScriptSpatial.Point
        : JavaScriptSpatial.None;

    // { indexing: 'Search' } (the seeds' FieldIndexing names, any case).
    private static bool SearchOf(Node options) =>
        options is ObjectExpression obj && Property(obj, "indexing") is StringLiteral indexing && string.Equals(indexing.Value, "Search", StringComparison.OrdinalIgnoreCase);
}
