using Folio.Storage.Documents;

namespace Folio.Indexing.Querying;

public sealed partial class QueryResult
{
    // Made by the first include cmpxchg(): most queries have none.
    private Dictionary<string, CompareExchangeValue>? _compareExchangeIncludes;

    /// <summary>The compare-exchange entries <c>include cmpxchg('Path')</c> named, by the key the documents gave.</summary>
    public IReadOnlyDictionary<string, CompareExchangeValue> CompareExchangeIncludes =>
        _compareExchangeIncludes ?? (IReadOnlyDictionary<string, CompareExchangeValue>)EmptyCompareExchange;

    private static readonly Dictionary<string, CompareExchangeValue> EmptyCompareExchange = [];

    internal void IncludeCompareExchange(string key, CompareExchangeValue value) =>
        (_compareExchangeIncludes ??= new(StringComparer.OrdinalIgnoreCase))[key] = value;
}
