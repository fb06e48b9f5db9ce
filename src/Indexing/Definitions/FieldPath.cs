using System.Text.Json;

namespace Folio.Indexing.Definitions;

/// <summary>
/// A path into a JSON document: property names joined by '.', where <c>[]</c> after a name walks
/// the array's items (<c>Lines[].Product</c>, <c>Tags[]</c>, <c>ShipTo.Country</c>). Arrays met where
/// no <c>[]</c> was written are walked too when indexing, so <c>Tags</c> on an array means its items;
/// a projection keeps such an array whole.
/// </summary>
public sealed class FieldPath
{
    private readonly bool _walksLastArray;

    private FieldPath(string text, string[] segments, bool walksLastArray)
    {
        Text = text;
        Segments = segments;
        _walksLastArray = walksLastArray;
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
        return new FieldPath(path, segments, path.EndsWith("[]", StringComparison.Ordinal));
    }

    /// <summary>
    /// The values at this path in <paramref name="root"/> as an index sees them: arrays met on the way or
    /// at the end are walked (nested ones too); objects and empty arrays at the end count as values (the
    /// field exists with nothing to match); missing properties give none.
    /// </summary>
    public List<JsonElement> Values(JsonElement root)
    {
        var values = new List<JsonElement>();
        Collect(root, 0, forIndex: true, values);
        return values;
    }

    /// <summary>
    /// The values at this path in <paramref name="root"/> as a projection returns them: arrays on the way
    /// are walked, an array at the end is kept whole unless the path ends in <c>[]</c>. Returns whether
    /// an array was walked, that is whether the values are a list rather than at most one value.
    /// </summary>
    public bool Select(JsonElement root, List<JsonElement> values) => Collect(root, 0, forIndex: false, values);

    private bool Collect(JsonElement element, int depth, bool forIndex, List<JsonElement> values)
    {
        var atEnd = depth == Segments.Count;
        if (element.ValueKind == JsonValueKind.Array && (!atEnd || forIndex || _walksLastArray))
        {
            if (atEnd && forIndex && element.GetArrayLength() == 0)
                values.Add(element);
            foreach (var item in element.EnumerateArray())
                Collect(item, depth, forIndex, values);
            return true;
        }
        if (atEnd)
        {
            values.Add(element);
            return false;
        }
        return element.ValueKind == JsonValueKind.Object && element.TryGetProperty(Segments[depth], out var child)
            && Collect(child, depth + 1, forIndex, values);
    }

    /// <inheritdoc/>
    public override string ToString() => Text;
}
