using Newtonsoft.Json.Linq;

namespace Folio.Client.Indexes;

/// <summary>A field of a map index: where its values come from and how they are indexed.</summary>
public sealed class IndexField
{
    /// <summary>The path in the document (<c>Name</c>, <c>ShipTo.Country</c>, <c>Lines[].Product</c>); the field's name when null.</summary>
    public string? Path { get; init; }

    /// <summary><c>String</c>, <c>Long</c>, <c>Double</c> or <c>Auto</c>; the server's default when null.</summary>
    public string? Type { get; init; }

    /// <summary>Whether the field is analyzed for full-text <c>search()</c>.</summary>
    public bool Search { get; init; }

    internal JObject ToJson()
    {
        var json = new JObject();
        if (Path is not null)
            json["Path"] = Path;
        if (Type is not null)
            json["Type"] = Type;
        if (Search)
            json["Search"] = true;
        return json;
    }
}
