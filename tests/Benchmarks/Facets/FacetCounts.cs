using System.Globalization;

namespace Folio.Benchmarks.Facets;

/// <summary>
/// What one engine counted for every query of every matched set: the total hits and each facet's count per value
/// (values with no match left out), kept so the two engines' answers can be compared value by value. The Java side
/// writes them as lines <c>set, query, facet, value, count</c> (facet <c>#total</c> for the hits).
/// </summary>
internal sealed class FacetCounts
{
    public const string Total = "#total";

    private readonly Dictionary<(string Set, int Query), SortedDictionary<string, SortedDictionary<string, long>>> _answers = [];

    public void Add(string set, int query, string facet, string value, long count)
    {
        if (count == 0)
            return;
        if (!_answers.TryGetValue((set, query), out var facets))
            _answers[(set, query)] = facets = new SortedDictionary<string, SortedDictionary<string, long>>(StringComparer.Ordinal);
        if (!facets.TryGetValue(facet, out var values))
            facets[facet] = values = new SortedDictionary<string, long>(StringComparer.Ordinal);
        values[value] = count;
    }

    /// <summary>The values a facet counted for a query, or none.</summary>
    public IReadOnlyDictionary<string, long> Values(string set, int query, string facet) =>
        _answers.TryGetValue((set, query), out var facets) && facets.TryGetValue(facet, out var values) ? values : new Dictionary<string, long>();

    /// <summary>A query's total hits.</summary>
    public long TotalHits(string set, int query) => Values(set, query, Total).GetValueOrDefault("");

    public static FacetCounts Read(string path)
    {
        var counts = new FacetCounts();
        foreach (var line in File.ReadLines(path))
        {
            var f = line.Split('\t');
            counts.Add(f[0], int.Parse(f[1], CultureInfo.InvariantCulture), f[2], f[3], long.Parse(f[4], CultureInfo.InvariantCulture));
        }
        return counts;
    }

    /// <summary>
    /// How many values <paramref name="other"/> counted otherwise than this, the first <paramref name="limit"/> of them
    /// as lines, and how many (set, query) pairs were compared: those either counted, or with
    /// <paramref name="onlyOwnQueries"/> those this counted (when this ran some of the queries only).
    /// </summary>
    public (int Differences, List<string> Examples, int Compared) Compare(FacetCounts other, string name, string otherName, bool onlyOwnQueries = false, int limit = 20)
    {
        var differences = 0;
        var examples = new List<string>();
        var keys = new SortedSet<(string, int)>(onlyOwnQueries ? _answers.Keys : _answers.Keys.Concat(other._answers.Keys));
        foreach (var (set, query) in keys)
        {
            var facets = new SortedSet<string>(StringComparer.Ordinal);
            foreach (var source in new[] { this, other })
            {
                if (source._answers.TryGetValue((set, query), out var answer))
                    facets.UnionWith(answer.Keys);
            }
            foreach (var facet in facets)
            {
                var mine = Values(set, query, facet);
                var theirs = other.Values(set, query, facet);
                foreach (var value in mine.Keys.Union(theirs.Keys))
                {
                    var a = mine.GetValueOrDefault(value);
                    var b = theirs.GetValueOrDefault(value);
                    if (a == b)
                        continue;
                    if (differences++ < limit)
                        examples.Add($"{set} query {query}, {facet} '{value}': {name} {a}, {otherName} {b}");
                }
            }
        }
        return (differences, examples, keys.Count);
    }
}
