using System.Text.Json;

namespace Folio.Indexing.Querying.Suggestions;

/// <summary>
/// The options of <c>suggest(field, word, $options)</c>, the seeds' <c>SuggestionOptions</c>: how many terms to
/// offer per field (<see cref="PageSize"/>), how similarity is measured (<see cref="Distance"/>), the least similarity
/// a term needs (<see cref="Accuracy"/>) and which terms may be offered (<see cref="SortMode"/>).
/// </summary>
public sealed record SuggestionOptions(int PageSize, SuggestionDistance Distance, float Accuracy, SuggestionSortMode SortMode)
{
    /// <summary>The seeds' defaults: 15 terms, Levenshtein, at least 0.5 similar, popularity.</summary>
    public static SuggestionOptions Default { get; } = new(15, SuggestionDistance.Levenshtein, 0.5f, SuggestionSortMode.Popularity);

    /// <summary>Reads options from their JSON object (property names in any case); an unknown property or a wrong value is a <see cref="QueryException"/>.</summary>
    public static SuggestionOptions Parse(JsonElement json, string suggestion)
    {
        if (json.ValueKind == JsonValueKind.Null)
            return Default;
        if (json.ValueKind != JsonValueKind.Object)
            throw new QueryException($"The options of {suggestion} must be an object like {{\"PageSize\":10,\"Distance\":\"JaroWinkler\",\"Accuracy\":0.4,\"SortMode\":\"Popularity\"}}, not {json.ValueKind.ToString().ToLowerInvariant()}.");
        var options = Default;
        foreach (var property in json.EnumerateObject())
        {
            var value = property.Value;
            options = property.Name.ToLowerInvariant() switch
            {
                "pagesize" => options with { PageSize = PageSizeOf(value, suggestion) },
                "distance" => options with { Distance = DistanceOf(value, suggestion) },
                "accuracy" => options with { Accuracy = AccuracyOf(value, suggestion) },
                "sortmode" => options with { SortMode = SortModeOf(value, suggestion) },
                _ => throw new QueryException($"The options of {suggestion} have an unknown property '{property.Name}' (known: PageSize, Distance, Accuracy, SortMode)."),
            };
        }
        return options;
    }

    private static int PageSizeOf(JsonElement value, string suggestion) =>
        value.ValueKind == JsonValueKind.Number && value.TryGetInt64(out var count) && count >= 1
            ? (int)Math.Min(count, int.MaxValue)
            : throw new QueryException($"PageSize in the options of {suggestion} must be a whole number of one or more, not {value.GetRawText()}.");

    private static float AccuracyOf(JsonElement value, string suggestion)
    {
        if (value.ValueKind == JsonValueKind.Null)
            return Default.Accuracy;
        return value.ValueKind == JsonValueKind.Number && value.GetDouble() is >= 0 and <= 1 and var accuracy
            ? (float)accuracy
            : throw new QueryException($"Accuracy in the options of {suggestion} must be a number from 0 to 1, not {value.GetRawText()}.");
    }

    // The seeds' clients also send None and Default, both meaning their default measure.
    private static SuggestionDistance DistanceOf(JsonElement value, string suggestion) =>
        (value.ValueKind == JsonValueKind.String ? value.GetString()!.ToLowerInvariant() : null) switch
        {
            "levenshtein" or "default" or "none" => SuggestionDistance.Levenshtein,
            "jarowinkler" => SuggestionDistance.JaroWinkler,
            "ngram" => SuggestionDistance.NGram,
            _ => throw new QueryException($"Distance in the options of {suggestion} must be Levenshtein, JaroWinkler or NGram, not {value.GetRawText()}."),
        };

    private static SuggestionSortMode SortModeOf(JsonElement value, string suggestion) =>
        (value.ValueKind == JsonValueKind.String ? value.GetString()!.ToLowerInvariant() : null) switch
        {
            "popularity" => SuggestionSortMode.Popularity,
            "none" => SuggestionSortMode.None,
            _ => throw new QueryException($"SortMode in the options of {suggestion} must be Popularity or None, not {value.GetRawText()}."),
        };
}
