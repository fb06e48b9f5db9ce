using System.Text.Json;

namespace Folio.Indexing.Querying;

/// <summary>How a term facet's values are ordered.</summary>
internal enum FacetTermSortMode
{
    /// <summary>Most matches first, ties by value (Folio's default).</summary>
    CountDesc,

    /// <summary>Fewest matches first, ties by value.</summary>
    CountAsc,

    /// <summary>By value: null first, then text (by its bytes, as the field folds it), then numbers, smallest first.</summary>
    ValueAsc,

    /// <summary>By value, the reverse of <see cref="ValueAsc"/>.</summary>
    ValueDesc,
}

/// <summary>
/// A facet's options, the seeds' system's <c>FacetOptions</c> plus Folio's <c>Sideways</c>:
/// <c>{"PageSize":10,"Start":0,"TermSortMode":"CountDesc","IncludeRemainingTerms":true,"Sideways":true}</c>, every
/// property optional. A term facet answers the values <c>Start</c> to <c>Start + PageSize</c> in
/// <c>TermSortMode</c> order and sums up those after them; a range facet takes only <c>Sideways</c>.
/// </summary>
/// <param name="Start">How many values (in order) to leave out before the page.</param>
/// <param name="PageSize">How many values to answer at most.</param>
/// <param name="SortMode">How the values are ordered.</param>
/// <param name="IncludeRemainingTerms">Whether the answer lists the values after the page.</param>
/// <param name="Sideways">Whether the facet counts as if the query's top-level <c>and</c> conditions on its own field were absent (multi-select).</param>
internal sealed record FacetOptions(int Start, int PageSize, FacetTermSortMode SortMode, bool IncludeRemainingTerms, bool Sideways)
{
    /// <summary>Every value, most frequent first, counted over the query's matches.</summary>
    public static FacetOptions Default { get; } = new(0, int.MaxValue, FacetTermSortMode.CountDesc, false, false);

    /// <summary>Whether the options change nothing but <see cref="Sideways"/> (what a range facet may take).</summary>
    public bool OnlySideways => this with { Sideways = false } == Default;

    /// <summary>Reads options from their JSON object; a property that is unknown or holds the wrong kind of value is a <see cref="QueryException"/>.</summary>
    public static FacetOptions Parse(JsonElement json, string facet)
    {
        if (json.ValueKind == JsonValueKind.Null)
            return Default;
        if (json.ValueKind != JsonValueKind.Object)
            throw new QueryException($"The options of {facet} must be an object like {{\"PageSize\":10,\"TermSortMode\":\"CountDesc\"}}, not {json.ValueKind.ToString().ToLowerInvariant()}.");
        var options = Default;
        foreach (var property in json.EnumerateObject())
        {
            var value = property.Value;
            options = property.Name.ToLowerInvariant() switch
            {
                "start" => options with { Start = Count(value, property.Name, facet) },
                "pagesize" => options with { PageSize = Count(value, property.Name, facet) },
                "termsortmode" => options with { SortMode = ParseSortMode(value, facet) },
                "includeremainingterms" => options with { IncludeRemainingTerms = Flag(value, property.Name, facet) },
                "sideways" => options with { Sideways = Flag(value, property.Name, facet) },
                _ => throw new QueryException($"The options of {facet} have an unknown property '{property.Name}' (known: Start, PageSize, TermSortMode, IncludeRemainingTerms, Sideways)."),
            };
        }
        return options;
    }

    private static int Count(JsonElement value, string name, string facet) =>
        value.ValueKind == JsonValueKind.Number && value.TryGetInt64(out var count) && count >= 0
            ? (int)Math.Min(count, int.MaxValue)
            : throw new QueryException($"{name} in the options of {facet} must be a whole number of zero or more, not {value.GetRawText()}.");

    private static bool Flag(JsonElement value, string name, string facet) => value.ValueKind switch
    {
        JsonValueKind.True => true,
        JsonValueKind.False => false,
        _ => throw new QueryException($"{name} in the options of {facet} must be true or false, not {value.GetRawText()}."),
    };

    private static FacetTermSortMode ParseSortMode(JsonElement value, string facet) =>
        value.ValueKind == JsonValueKind.String && value.GetString() is { } text
            && Enum.TryParse<FacetTermSortMode>(text, ignoreCase: true, out var mode) && Enum.IsDefined(mode) && !int.TryParse(text, out _)
            ? mode
            : throw new QueryException($"TermSortMode in the options of {facet} must be ValueAsc, ValueDesc, CountAsc or CountDesc, not {value.GetRawText()}.");
}
