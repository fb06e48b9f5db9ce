using System.Collections.Concurrent;
using System.Globalization;
using Folio.Client.Http;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Identity;

/// <summary>
/// Makes ids on the client from ranges of numbers reserved per database and collection. A range is reserved by
/// storing a marker document under a server-made id (<c>hilo/orders/</c> becomes <c>hilo/orders/7</c>): the server's
/// counter for that prefix is atomic, so range 7 (numbers 6×size+1 to 7×size) belongs to this client alone, even when
/// clients race, without reading and writing a shared document. The previous range's marker is deleted in the same
/// transaction, so at most one marker per collection and client stays behind.
/// </summary>
internal sealed class HiLoIdGenerator
{
    /// <summary>
    /// Ids per range. Fixed rather than configurable: range n is numbers (n-1)×size+1 to n×size for every client, so
    /// clients with different sizes would hand out the same numbers.
    /// </summary>
    public const int RangeSize = 32;

    private readonly DocumentStore _store;
    private readonly ConcurrentDictionary<(string Database, string Collection), Range> _ranges = new();

    public HiLoIdGenerator(DocumentStore store)
    {
        _store = store;
    }

    public async Task<string> NextIdAsync(string database, string collection, CancellationToken cancellationToken)
    {
        Range range = _ranges.GetOrAdd((database, collection), static _ => new Range());
        long number = await range.NextAsync(this, database, collection, cancellationToken).ConfigureAwait(false);
        return _store.Conventions.FindIdPrefix(collection) + number.ToString(CultureInfo.InvariantCulture);
    }

    private async Task<(long Block, string MarkerId)> ReserveAsync(string database, string collection, string? previousMarker, CancellationToken cancellationToken)
    {
        var commands = new JArray
        {
            new JObject
            {
                ["Type"] = "PUT",
                ["Id"] = "hilo/" + collection.ToLowerInvariant() + "/",
                ["Document"] = new JObject { ["@metadata"] = new JObject { ["@collection"] = "HiLo" } },
            },
        };
        if (previousMarker is not null)
            commands.Add(new JObject { ["Type"] = "DELETE", ["Id"] = previousMarker });
        var body = new JObject { ["Commands"] = commands };
        string path = UrlBuilder.ForDatabase(database, "bulk_docs").ToString();
        JObject answer = (await _store.Executor.SendForJsonAsync(
            url => new HttpRequestMessage(HttpMethod.Post, new Uri(url, path)) { Content = RequestExecutor.JsonContent(body) },
            null, cancellationToken).ConfigureAwait(false))!;
        string markerId = (string)answer["Results"]![0]!["@id"]!;
        long block = long.Parse(markerId.AsSpan(markerId.LastIndexOf('/') + 1), NumberStyles.None, CultureInfo.InvariantCulture);
        return (block, markerId);
    }

    /// <summary>One collection's current range.</summary>
    private sealed class Range
    {
        private readonly SemaphoreSlim _lock = new(1, 1);
        private long _next = 1;
        private long _max;
        private string? _marker;

        public async Task<long> NextAsync(HiLoIdGenerator generator, string database, string collection, CancellationToken cancellationToken)
        {
            await _lock.WaitAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                if (_next > _max)
                {
                    const int size = RangeSize;
                    (long block, string marker) = await generator.ReserveAsync(database, collection, _marker, cancellationToken).ConfigureAwait(false);
                    _marker = marker;
                    _next = ((block - 1) * size) + 1;
                    _max = block * size;
                }
                return _next++;
            }
            finally
            {
                _lock.Release();
            }
        }
    }
}
