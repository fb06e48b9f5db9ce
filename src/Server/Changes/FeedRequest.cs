using System.Globalization;
using Folio.Server.Http;
using Microsoft.Extensions.Primitives;

namespace Folio.Server.Changes;

/// <summary>
/// The query string of <c>GET /databases/{db}/changes</c>: <c>since</c> (an etag, or <c>now</c>), <c>feed</c>,
/// <c>limit</c>, <c>timeout</c>, <c>heartbeat</c>, <c>includeDocs</c>, and the filters <c>id</c>, <c>prefix</c>
/// and <c>collection</c> (each may repeat; a change matching any is reported).
/// </summary>
internal sealed record FeedRequest(long? Since, FeedMode Mode, int Limit, TimeSpan? Timeout, TimeSpan Heartbeat, bool IncludeDocuments, ChangeFilter Filter)
{
    /// <summary>Parses the request's query string; 400 naming the parameter when one is unusable.</summary>
    /// <param name="request">The request.</param>
    /// <param name="options">The defaults.</param>
    /// <param name="maxPageSize">The most changes a normal or long-poll answer holds.</param>
    public static FeedRequest Parse(HttpRequest request, ChangesOptions options, int maxPageSize)
    {
        FeedMode mode = QueryParameters.Optional(request, "feed") switch
        {
            null or "normal" => FeedMode.Normal,
            "longpoll" => FeedMode.LongPoll,
            "continuous" => FeedMode.Continuous,
            var other => throw QueryParameters.Invalid($"The query parameter 'feed' must be normal, longpoll or continuous; it is '{other}'."),
        };
        long? since = ParseSince(QueryParameters.Optional(request, "since"));
        int limit = QueryParameters.NonNegativeInt32(request, "limit", mode == FeedMode.Continuous ? int.MaxValue : maxPageSize);
        if (limit == 0 || (mode != FeedMode.Continuous && limit > maxPageSize))
            throw QueryParameters.Invalid($"The query parameter 'limit' must be from 1 to {(mode == FeedMode.Continuous ? int.MaxValue : maxPageSize)}; it is {limit}.");
        string? timeoutText = QueryParameters.Optional(request, "timeout");
        TimeSpan? timeout = timeoutText is null ? (mode == FeedMode.LongPoll ? options.LongPollTimeout : null) : QueryParameters.Duration(timeoutText);
        string? heartbeatText = QueryParameters.Optional(request, "heartbeat");
        TimeSpan heartbeat = heartbeatText is null ? options.Heartbeat : QueryParameters.Duration(heartbeatText);
        if (heartbeat < TimeSpan.FromMilliseconds(10))
            throw QueryParameters.Invalid("The query parameter 'heartbeat' must be at least 10 milliseconds.");
        bool includeDocuments = QueryParameters.Optional(request, "includeDocs") switch
        {
            null or "false" => false,
            "true" => true,
            var other => throw QueryParameters.Invalid($"The query parameter 'includeDocs' must be true or false; it is '{other}'."),
        };
        return new FeedRequest(since, mode, limit, timeout, heartbeat, includeDocuments, ParseFilter(request.Query));
    }

    private static long? ParseSince(string? text)
    {
        if (text is null)
            return 0;
        if (text == "now")
            return null;
        if (long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out long etag))
            return etag;
        throw QueryParameters.Invalid($"The query parameter 'since' must be an etag (a whole number from 0) or 'now'; it is '{text}'.");
    }

    private static ChangeFilter ParseFilter(IQueryCollection query)
    {
        ChangeFilter filter = ChangeFilter.Nothing;
        filter = Add(filter, query["id"], "id", static (f, v) => f.WithId(v, true));
        filter = Add(filter, query["prefix"], "prefix", static (f, v) => f.WithPrefix(v, true));
        filter = Add(filter, query["collection"], "collection", static (f, v) => f.WithCollection(v, true));
        return filter.IsEmpty ? ChangeFilter.Everything : filter;
    }

    private static ChangeFilter Add(ChangeFilter filter, StringValues values, string name, Func<ChangeFilter, string, ChangeFilter> add)
    {
        foreach (string? value in values)
        {
            if (string.IsNullOrEmpty(value))
                throw QueryParameters.Invalid($"The query parameter '{name}' must not be empty.");
            filter = add(filter, value);
        }

        return filter;
    }
}
