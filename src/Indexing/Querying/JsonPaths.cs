using System.Text.Json;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Querying;

/// <summary>The values at a field path of a parsed document, walking arrays on the way (for projections and includes).</summary>
internal static class JsonPaths
{
    public static List<JsonElement> Values(JsonElement root, string path)
    {
        var values = new List<JsonElement>();
        Collect(root, FieldPath.Parse(path).Segments, 0, values);
        return values;
    }

    private static void Collect(JsonElement element, IReadOnlyList<string> segments, int depth, List<JsonElement> values)
    {
        if (depth == segments.Count)
        {
            if (element.ValueKind == JsonValueKind.Array && depth > 0)
            {
                foreach (var item in element.EnumerateArray())
                    values.Add(item);
                return;
            }
            values.Add(element);
            return;
        }
        if (element.ValueKind == JsonValueKind.Array)
        {
            foreach (var item in element.EnumerateArray())
                Collect(item, segments, depth, values);
            return;
        }
        if (element.ValueKind == JsonValueKind.Object && element.TryGetProperty(segments[depth], out var child))
            Collect(child, segments, depth + 1, values);
    }
}
