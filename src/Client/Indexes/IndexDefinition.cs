using Newtonsoft.Json.Linq;

namespace Folio.Client.Indexes;

/// <summary>
/// A static index: a map index (<see cref="Fields"/>) or a map/reduce index (<see cref="Reduce"/>), as the server's
/// <c>PUT /databases/{db}/indexes</c> takes it.
/// </summary>
public sealed class IndexDefinition
{
    /// <summary>The index's name, e.g. <c>Products/Search</c>.</summary>
    public required string Name { get; init; }

    /// <summary>The collections it reads.</summary>
    public required IReadOnlyList<string> Collections { get; init; }

    /// <summary>A map index's fields by name.</summary>
    public IReadOnlyDictionary<string, IndexField>? Fields { get; init; }

    /// <summary>A map/reduce index's reduce part as the server takes it: <c>{"GroupBy":[…],"Aggregations":{…}}</c>.</summary>
    public JObject? Reduce { get; init; }

    internal JObject ToJson()
    {
        var json = new JObject { ["Name"] = Name, ["Collections"] = new JArray(Collections) };
        if (Fields is not null)
        {
            var fields = new JObject();
            foreach (KeyValuePair<string, IndexField> field in Fields)
                fields[field.Key] = field.Value.ToJson();
            json["Fields"] = fields;
        }
        if (Reduce is not null)
            json["Reduce"] = Reduce;
        return json;
    }
}
