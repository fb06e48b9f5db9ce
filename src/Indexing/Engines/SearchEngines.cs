using System.Diagnostics.CodeAnalysis;
using Folio.Indexing.Engines.Lucene;
using Folio.Indexing.Search;

namespace Folio.Indexing.Engines;

/// <summary>
/// The search engines an index definition may name (<c>"SearchEngine"</c>): Folio's own, the default, and Lucene.Net.
/// Names compare case-insensitively; the canonical spelling is the engine's <see cref="ISearchEngine.Name"/>.
/// </summary>
public static class SearchEngines
{
    /// <summary>The engine of indexes that name none, unless the server's setting says otherwise.</summary>
    public const string Default = FolioSearchEngine.EngineName;

    private static readonly ISearchEngine[] All = [FolioSearchEngine.Instance, LuceneSearchEngine.Instance];

    /// <summary>The names of the engines, canonically spelled.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. All.Select(engine => engine.Name)];

    /// <summary>The engine named <paramref name="name"/> (any case); false when there is none.</summary>
    public static bool TryGet(string? name, [NotNullWhen(true)] out ISearchEngine? engine)
    {
        foreach (var candidate in All)
        {
            if (string.Equals(candidate.Name, name, StringComparison.OrdinalIgnoreCase))
            {
                engine = candidate;
                return true;
            }
        }
        engine = null;
        return false;
    }

    /// <summary>The engine named <paramref name="name"/> (any case).</summary>
    /// <exception cref="ArgumentException">No engine has that name.</exception>
    public static ISearchEngine Get(string name) =>
        TryGet(name, out var engine) ? engine : throw new ArgumentException(UnknownMessage(name), nameof(name));

    /// <summary>What to tell someone who named an engine that does not exist.</summary>
    public static string UnknownMessage(string? name) => $"Unknown search engine '{name}' (expected {string.Join(" or ", Names)}).";
}
