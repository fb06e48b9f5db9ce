namespace Folio.Indexing.Rql;

/// <summary>A query that does not parse: where (a character offset) and what was expected there.</summary>
public sealed class RqlParseException(string message, int position) : Exception($"{message} (at position {position})")
{
    /// <summary>The offset in the query text where parsing stopped.</summary>
    public int Position { get; } = position;
}
