using System.Buffers;
using System.Globalization;
using System.IO.Pipelines;
using System.Text.Json;
using Folio.Indexing.Querying;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// Streaming as the seeds' system's clients ask for it: a posted query (<c>POST …/streams/queries</c>) and the
/// documents by id prefix (<c>GET …/streams/docs</c>), each as one JSON object (<c>format=json</c>,
/// <c>{"Results":[…]}</c>) or as JSON lines (<c>format=jsonl</c>, the clients' default): a query's stream starts
/// with <c>{"Stats":{…}}</c> and has a <c>{"Item":…}</c> line per result; a document stream has a line per document.
/// </summary>
public sealed class StreamsHandler
{
    private const int FlushBytes = 32 * 1024;
    private const string LinesContentType = "application/x-ndjson; charset=utf-8";
    private static readonly byte[] NewLine = "\n"u8.ToArray();

    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the body, depth and page limits.</param>
    public StreamsHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>
    /// <c>POST /databases/{db}/streams/queries?format=json|jsonl</c> with <c>{"Query","QueryParameters"?}</c>: every
    /// result, without paging limits, after the query's statistics (<c>IndexName</c>, <c>TotalResults</c>, <c>IsStale</c>,
    /// <c>ResultEtag</c>, <c>IndexTimestamp</c>). The statistics come from running the query's first page once before
    /// the stream, so they cost one page more.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the last result is written.</returns>
    [FolioRoute("POST", "/databases/{db}/streams/queries", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Query(FolioRequest request)
    {
        bool lines = Format(request.Request);
        using JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted);
        JsonElement root = body.RootElement;
        if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Query", out JsonElement text) || text.ValueKind != JsonValueKind.String)
            throw QueryParameters.Invalid("The body must be an object with a \"Query\" string.");
        JsonElement? parameters = root.TryGetProperty("QueryParameters", out JsonElement p) && p.ValueKind != JsonValueKind.Null ? p : null;
        if (parameters is { ValueKind: not JsonValueKind.Object })
            throw QueryParameters.Invalid("QueryParameters must be an object of parameter names to values.");
        string query = text.GetString()!;
        var queryOptions = new QueryOptions { Parameters = parameters, MaxPageSize = _options.MaxPageSize };

        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        StreamStats stats;
        using (QueryResult first = await lease.Database.Queries.RunAsync(query, queryOptions, request.Aborted))
            stats = new StreamStats(first.IndexName, first.TotalResults, first.IsStale, first.IndexEtag, DateTime.UtcNow);
        using QueryStream results = await lease.Database.Queries.StreamAsync(query, queryOptions, request.Aborted);

        HttpResponse response = request.Response;
        response.ContentType = lines ? LinesContentType : JsonWriters.ContentType;
        // Started before the first result: a failure while streaming then cuts the answer rather than appending a
        // problem document to half of it.
        await response.StartAsync(request.Aborted);
        Utf8JsonWriter writer = JsonWriters.Rent(response.BodyWriter);
        try
        {
            if (lines)
            {
                writer.WriteStartObject();
                writer.WritePropertyName("Stats"u8);
                WriteStats(writer, stats, inline: false);
                writer.WriteEndObject();
                EndLine(writer, response.BodyWriter);
            }
            else
            {
                writer.WriteStartObject();
                WriteStats(writer, stats, inline: true);
                writer.WriteStartArray("Results"u8);
            }

            long pending = 0;
            foreach (byte[] result in results)
            {
                if (lines)
                {
                    writer.WriteStartObject();
                    writer.WritePropertyName("Item"u8);
                    writer.WriteRawValue(result, skipInputValidation: true);
                    writer.WriteEndObject();
                    EndLine(writer, response.BodyWriter);
                }
                else
                {
                    writer.WriteRawValue(result, skipInputValidation: true);
                }

                pending = await FlushIfFullAsync(writer, response.BodyWriter, pending, result.Length, request.Aborted);
            }

            if (!lines)
            {
                writer.WriteEndArray();
                writer.WriteEndObject();
            }

            writer.Flush();
        }
        finally
        {
            JsonWriters.Return(writer);
        }

        await response.BodyWriter.FlushAsync(request.Aborted);
    }

    /// <summary>
    /// <c>GET /databases/{db}/streams/docs?format=json|jsonl&amp;startsWith=&amp;matches=&amp;exclude=&amp;startAfter=&amp;start=&amp;pageSize=</c>:
    /// the documents whose id starts with <c>startsWith</c> (all without it), in id order. <c>matches</c> and <c>exclude</c>
    /// are <c>|</c>-separated patterns (<c>*</c> any run, <c>?</c> one character) on the rest of the id, ignoring case;
    /// <c>startAfter</c> skips ids up to and including it; <c>start</c> and <c>pageSize</c> page what is left.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the last document is written.</returns>
    [FolioRoute("GET", "/databases/{db}/streams/docs", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Docs(FolioRequest request)
    {
        bool lines = Format(request.Request);
        string prefix = QueryParameters.Optional(request.Request, "startsWith") ?? "";
        string[] matches = Patterns(QueryParameters.Optional(request.Request, "matches"));
        string[] excludes = Patterns(QueryParameters.Optional(request.Request, "exclude"));
        string? startAfter = QueryParameters.Optional(request.Request, "startAfter");
        int start = QueryParameters.NonNegativeInt32(request.Request, "start", 0);
        int pageSize = QueryParameters.NonNegativeInt32(request.Request, "pageSize", int.MaxValue);

        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        using DocumentReader reader = lease.Database.Store.OpenReader();
        DocumentCursor cursor = reader.ByIdPrefix(prefix);
        HttpResponse response = request.Response;
        response.ContentType = lines ? LinesContentType : JsonWriters.ContentType;
        await response.StartAsync(request.Aborted);
        Utf8JsonWriter writer = JsonWriters.Rent(response.BodyWriter);
        try
        {
            if (!lines)
            {
                writer.WriteStartObject();
                writer.WriteStartArray("Results"u8);
            }

            long pending = 0;
            int skipped = 0;
            int written = 0;
            while (written < pageSize && cursor.MoveNext())
            {
                if (!Selected(cursor.Current.IdString, prefix.Length, matches, excludes, startAfter))
                    continue;
                if (skipped < start)
                {
                    skipped++;
                    continue;
                }

                ReadOnlySpan<byte> json = cursor.Current.Json;
                writer.WriteRawValue(json, skipInputValidation: true);
                int length = json.Length;
                if (lines)
                    EndLine(writer, response.BodyWriter);
                written++;
                pending = await FlushIfFullAsync(writer, response.BodyWriter, pending, length, request.Aborted);
            }

            if (!lines)
            {
                writer.WriteEndArray();
                writer.WriteEndObject();
            }

            writer.Flush();
        }
        finally
        {
            JsonWriters.Return(writer);
        }

        await response.BodyWriter.FlushAsync(request.Aborted);
    }

    private static bool Format(HttpRequest request) =>
        QueryParameters.Optional(request, "format") switch
        {
            null or "json" => false,
            "jsonl" => true,
            _ => throw QueryParameters.Invalid("'format' must be 'json' or 'jsonl'."),
        };

    private static string[] Patterns(string? text) =>
        text is null ? [] : text.Split('|', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static bool Selected(string id, int prefixLength, string[] matches, string[] excludes, string? startAfter)
    {
        if (startAfter is not null && string.Compare(id, startAfter, StringComparison.OrdinalIgnoreCase) <= 0)
            return false;
        ReadOnlySpan<char> rest = id.AsSpan(Math.Min(prefixLength, id.Length));
        if (matches.Length > 0 && !AnyMatches(rest, matches))
            return false;
        return excludes.Length == 0 || !AnyMatches(rest, excludes);
    }

    private static bool AnyMatches(ReadOnlySpan<char> text, string[] patterns)
    {
        foreach (string pattern in patterns)
        {
            if (Wildcard(text, pattern))
                return true;
        }

        return false;
    }

    // '*' any run of characters, '?' one character, the rest compared ignoring case; backtracks to the last '*'.
    private static bool Wildcard(ReadOnlySpan<char> text, ReadOnlySpan<char> pattern)
    {
        int t = 0, p = 0, star = -1, mark = 0;
        while (t < text.Length)
        {
            if (p < pattern.Length && (pattern[p] == '?' || char.ToLowerInvariant(pattern[p]) == char.ToLowerInvariant(text[t])))
            {
                t++;
                p++;
            }
            else if (p < pattern.Length && pattern[p] == '*')
            {
                star = p++;
                mark = t;
            }
            else if (star >= 0)
            {
                p = star + 1;
                t = ++mark;
            }
            else
            {
                return false;
            }
        }

        while (p < pattern.Length && pattern[p] == '*')
            p++;
        return p == pattern.Length;
    }

    private static void WriteStats(Utf8JsonWriter writer, StreamStats stats, bool inline)
    {
        if (!inline)
            writer.WriteStartObject();
        writer.WriteString("IndexName"u8, stats.IndexName);
        writer.WriteBoolean("IsStale"u8, stats.IsStale);
        writer.WriteString("IndexTimestamp"u8, stats.At.ToString("O", CultureInfo.InvariantCulture));
        writer.WriteNumber("TotalResults"u8, stats.TotalResults);
        writer.WriteNumber("ResultEtag"u8, stats.ResultEtag);
        if (!inline)
            writer.WriteEndObject();
    }

    private static void EndLine(Utf8JsonWriter writer, PipeWriter body)
    {
        writer.Flush();
        body.Write(NewLine);
        writer.Reset(body);
    }

    // The writer hands full buffers to the pipe by itself, but only a flush sends them: without one the whole answer
    // would wait in memory. `pending` counts what was written since the last flush.
    private static async ValueTask<long> FlushIfFullAsync(Utf8JsonWriter writer, PipeWriter body, long pending, int written, CancellationToken cancellationToken)
    {
        pending += written;
        if (pending < FlushBytes)
            return pending;
        writer.Flush();
        await body.FlushAsync(cancellationToken);
        return 0;
    }

    private readonly record struct StreamStats(string? IndexName, long TotalResults, bool IsStale, long ResultEtag, DateTime At);
}
