using System.Text.Json;

namespace Folio.Indexing.Definitions;

/// <summary>
/// A path into a JSON document: property names joined by '.', where <c>[]</c> after a name walks
/// the array's items (<c>Lines[].Product</c>, <c>Tags[]</c>, <c>ShipTo.Country</c>). Arrays met where
/// no <c>[]</c> was written are walked too, so <c>Tags</c> on an array means its items.
/// </summary>
public sealed class FieldPath
{
    private FieldPath(string text, string[] segments)
    {
        Text = text;
        Segments = segments;
    }

    /// <summary>The path as written.</summary>
    public string Text { get; }

    /// <summary>The property names along the path.</summary>
    public IReadOnlyList<string> Segments { get; }

    /// <summary>Parses a path; throws <see cref="IndexDefinitionException"/> naming what is wrong.</summary>
    public static FieldPath Parse(string path)
    {
        if (string.IsNullOrWhiteSpace(path))
            throw new IndexDefinitionException("A field path must not be empty.");
        var parts = path.Split('.');
        var segments = new string[parts.Length];
        for (var i = 0; i < parts.Length; i++)
        {
            var part = parts[i];
            if (part.EndsWith("[]", StringComparison.Ordinal))
                part = part[..^2];
            if (part.Length == 0)
                throw new IndexDefinitionException($"The field path '{path}' has an empty segment.");
            foreach (var c in part)
            {
                if (c is '[' or ']' or '"' or '\'' || char.IsWhiteSpace(c) || char.IsControl(c))
                    throw new IndexDefinitionException($"The field path '{path}' has a '{c}' in segment '{part}'; write arrays as Name[] and nest with '.'.");
            }
            segments[i] = part;
        }
        return new FieldPath(path, segments);
    }

    /// <summary>
    /// The values at this path in <paramref name="root"/>: arrays met on the way or at the end are
    /// walked (nested ones too), objects at the end count as values, missing properties give none.
    /// </summary>
    public List<JsonElement> Values(JsonElement root)
    {
        var values = new List<JsonElement>();
        Collect(root, 0, values);
        return values;
    }

    private void Collect(JsonElement element, int depth, List<JsonElement> values)
    {
        if (element.ValueKind == JsonValueKind.Array && (depth > 0 || Segments.Count > 0))
        {
            foreach (var item in element.EnumerateArray())
                Collect(item, depth, values);
            return;
        }
        if (depth == Segments.Count)
        {
            values.Add(element);
            return;
        }
        if (element.ValueKind == JsonValueKind.Object && element.TryGetProperty(Segments[depth], out var child))
            Collect(child, depth + 1, values);
    }

    /// <inheritdoc/>
    public override string ToString() => Text;
}
