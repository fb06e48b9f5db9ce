namespace Folio.Indexing.Queries;

/// <summary>Every entry.</summary>
public sealed class MatchAllQuery : Query
{
    /// <summary>The one instance.</summary>
    public static MatchAllQuery Instance { get; } = new();
}
