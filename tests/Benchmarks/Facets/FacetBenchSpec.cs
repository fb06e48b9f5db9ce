using System.Globalization;
using Folio.Benchmarks.Search;

namespace Folio.Benchmarks.Facets;

/// <summary>One range of the price facet: the RQL text Folio is asked (also Lucene's label) and its bounds (null: open).</summary>
internal sealed record PriceRange(string Label, double? Min, bool MinInclusive, double? Max, bool MaxInclusive);

/// <summary>
/// What facet-load asks both engines, over the search benchmark's records: three term facets (<c>Category</c>, 50
/// values; <c>Brand</c>, 5,000; <c>Month</c>, the record's timestamp as <c>yyyy-MM</c> in UTC, 13) and one range facet
/// (<c>Price</c>, five ranges), over three matched sets: <c>term</c>, the category whose records are nearest 37,000;
/// <c>text</c>, the search benchmark's two-word full-text queries (OR); <c>all</c>, every record. Written to a
/// tab-separated file the Java side reads, so both run the same queries.
/// </summary>
internal sealed class FacetBenchSpec
{
    /// <summary>The matched sets, in the order they run and are reported.</summary>
    public static readonly string[] Sets = ["term", "text", "all"];

    /// <summary>The term facets' fields (each one's facet is named after it).</summary>
    public static readonly string[] TermFields = ["Category", "Brand", "Month"];

    /// <summary>The range facet's field and name.</summary>
    public const string RangeField = "Price";

    /// <summary>How many records the term query aims at (issue 19: "a term query of ~37K hits").</summary>
    public const int TermTarget = 37_000;

    public static readonly PriceRange[] Ranges =
    [
        new("Price < 10", null, false, 10, false),
        new("Price between 10 and 24.99", 10, true, 24.99, true),
        new("Price between 25 and 49.99", 25, true, 49.99, true),
        new("Price between 50 and 99.99", 50, true, 99.99, true),
        new("Price >= 100", 100, true, null, false),
    ];

    public required string TermCategory { get; init; }

    public required int TermHits { get; init; }

    public required IReadOnlyList<string> TextQueries { get; init; }

    /// <summary>How often the term and all-records queries are timed (the text set times each of its queries once).</summary>
    public required int Repeats { get; init; }

    /// <summary>The distinct queries of a set (the term and all sets have one).</summary>
    public int QueryCount(string set) => set == "text" ? TextQueries.Count : 1;

    /// <summary>How many timed runs a set has.</summary>
    public int TimedRuns(string set) => set == "text" ? TextQueries.Count : Repeats;

    /// <summary>A record's month, the third term facet's value: its timestamp's UTC year and month.</summary>
    public static string Month(long timestamp) =>
        DateTimeOffset.FromUnixTimeSeconds(timestamp).UtcDateTime.ToString("yyyy-MM", CultureInfo.InvariantCulture);

    /// <summary>Picks the term query's category from the records and the text queries from the search benchmark's query file.</summary>
    public static FacetBenchSpec Create(BenchRecord[] records, List<string[]> textQueries, int textCount, int repeats)
    {
        var byCategory = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var record in records)
            byCategory[record.Category] = byCategory.GetValueOrDefault(record.Category) + 1;
        // Scaled with the records, so a quick run with fewer has a term query of the same share.
        var target = (double)TermTarget * records.Length / 1_000_000;
        var (category, hits) = byCategory.MinBy(c => Math.Abs(c.Value - target));
        return new FacetBenchSpec
        {
            TermCategory = category,
            TermHits = hits,
            TextQueries = [.. textQueries.Take(textCount).Select(q => q[0])],
            Repeats = repeats,
        };
    }

    /// <summary>Writes the spec as the Java side reads it: <c>term</c>, <c>text</c>, <c>repeats</c> and <c>range</c> lines.</summary>
    public void Write(string path)
    {
        using var writer = new StreamWriter(path);
        writer.Write($"term\t{TermCategory}\n");
        foreach (var query in TextQueries)
            writer.Write($"text\t{query}\n");
        writer.Write(FormattableString.Invariant($"repeats\t{Repeats}\n"));
        foreach (var range in Ranges)
            writer.Write(FormattableString.Invariant($"range\t{range.Label}\t{range.Min}\t{range.MinInclusive}\t{range.Max}\t{range.MaxInclusive}\n"));
    }
}
