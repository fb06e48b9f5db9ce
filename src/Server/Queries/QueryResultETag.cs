using System.IO.Hashing;
using System.Runtime.InteropServices;
using System.Text.Json;
using Microsoft.Extensions.Primitives;

namespace Folio.Server.Queries;

/// <summary>
/// The <c>ETag</c> of a query's answer, so a client that kept one can ask again with <c>If-None-Match</c> and get 304
/// (the seeds' clients cache query answers this way). It hashes what the answer depends on: the query and its
/// parameters, the index answering and how far it had indexed, whether that was stale, and the database's last
/// write when the query began, so any write since makes a new tag even where the index would not show it (loaded
/// documents, includes).
/// </summary>
internal static class QueryResultETag
{
    /// <summary>The tag, or null for a query whose answer differs each time it runs (<c>order by random()</c>).</summary>
    public static string? Compute(string query, JsonElement? parameters, string indexName, long indexEtag, bool isStale, long lastWrite, bool seedsShapes)
    {
        if (query.Contains("random(", StringComparison.OrdinalIgnoreCase))
            return null;
        var hash = new XxHash64();
        hash.Append(MemoryMarshal.AsBytes(query.AsSpan()));
        hash.Append([0]);
        if (parameters is { } bag)
            hash.Append(JsonMarshal.GetRawUtf8Value(bag));
        hash.Append([0]);
        hash.Append(MemoryMarshal.AsBytes(indexName.AsSpan()));
        Span<long> state = [indexEtag, lastWrite, isStale ? 1 : 0, seedsShapes ? 1 : 0];
        hash.Append(MemoryMarshal.AsBytes(state));
        return "\"q-" + hash.GetCurrentHashAsUInt64().ToString("x16", System.Globalization.CultureInfo.InvariantCulture) + "\"";
    }

    /// <summary>Whether <c>If-None-Match</c> names <paramref name="etag"/> (or is <c>*</c>).</summary>
    public static bool Matches(StringValues ifNoneMatch, string etag)
    {
        foreach (var value in ifNoneMatch)
        {
            if (value is null)
                continue;
            foreach (var part in value.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
            {
                if (part == "*" || part == etag || part == "W/" + etag)
                    return true;
            }
        }
        return false;
    }
}
