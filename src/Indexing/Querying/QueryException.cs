namespace Folio.Indexing.Querying;

/// <summary>A query that parses but cannot run: an unknown field, a missing parameter, a value of the wrong kind.</summary>
public sealed class QueryException(string message) : Exception(message);

/// <summary>A query names an index that does not exist.</summary>
public sealed class IndexNotFoundException(string name) : Exception($"There is no index named '{name}'.")
{
    /// <summary>The name asked for.</summary>
    public string Name { get; } = name;
}
