using System.Collections.Concurrent;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying;

/// <summary>
/// Parsed queries by their text. Applications send the same few query texts with different parameters,
/// so lexing and parsing each request again was pure garbage (a token list, strings and the tree, about
/// a tenth of what an equality query allocated). The parse tree is immutable, so one is shared by every
/// request with that text. Bounded: when full it starts over, which costs one parse per text again.
/// </summary>
internal sealed class ParsedQueryCache
{
    /// <summary>How many distinct texts are kept.</summary>
    public const int Capacity = 1024;

    /// <summary>Texts longer than this are parsed every time (generated queries with inlined values rarely repeat).</summary>
    public const int MaxTextLength = 4096;

    private readonly ConcurrentDictionary<string, RqlQuery> _queries = new(StringComparer.Ordinal);

    // ConcurrentDictionary.Count takes every lock, so the cache counts its own additions.
    private int _count;

    /// <summary>The parse of <paramref name="text"/>; throws <see cref="RqlParseException"/> as the parser does.</summary>
    public RqlQuery Parse(string text)
    {
        if (_queries.TryGetValue(text, out var query))
            return query;
        query = RqlParser.Parse(text);
        if (text.Length <= MaxTextLength)
        {
            if (Volatile.Read(ref _count) >= Capacity)
            {
                _queries.Clear();
                Volatile.Write(ref _count, 0);
            }
            if (_queries.TryAdd(text, query))
                Interlocked.Increment(ref _count);
        }
        return query;
    }
}
