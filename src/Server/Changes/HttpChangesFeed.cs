using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;

namespace Folio.Server.Changes;

/// <summary>
/// The plain-HTTP changes feed for any language, after CouchDB's <c>_changes</c>: a normal or long-poll
/// answer <c>{"Results":[…],"LastEtag":N}</c>, or a continuous NDJSON stream of changes with empty lines as
/// heartbeats, closed by a <c>{"LastEtag":N}</c> line. <c>LastEtag</c> is the etag through which the feed
/// is complete: the next request's <c>since</c>.
/// </summary>
internal static class HttpChangesFeed
{
    /// <summary>Media type of the continuous feed.</summary>
    public const string NdjsonContentType = "application/x-ndjson; charset=utf-8";

    /// <summary>Changes read per step of a continuous feed, so each flush stays small.</summary>
    private const int ContinuousChunk = 1024;

    private static readonly JsonWriterOptions s_options = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>Answers <paramref name="feed"/> for <paramref name="database"/>, holding a lease only while reading.</summary>
    public static async ValueTask RunAsync(HttpContext context, Database database, FeedRequest feed)
    {
        long position = feed.Since ?? database.Store.LastEtag;
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted, database.Closing);
        if (feed.Mode == FeedMode.Continuous)
            await ContinuousAsync(context, database, feed, position, stop.Token);
        else
            await OneAnswerAsync(context, database, feed, position, stop.Token);
    }

    private static async ValueTask OneAnswerAsync(HttpContext context, Database database, FeedRequest feed, long position, CancellationToken stop)
    {
        var changes = new List<ChangeRecord>();
        long deadline = feed.Timeout is { } timeout ? Environment.TickCount64 + (long)timeout.TotalMilliseconds : 0;
        while (true)
        {
            (long UpToEtag, bool More)? read = ChangeReader.Read(database, position, feed.Filter, feed.Limit, feed.IncludeDocuments, changes);
            if (read is null)
                throw Closing(database);
            position = read.Value.UpToEtag;
            if (changes.Count > 0 || feed.Mode == FeedMode.Normal)
                break;
            if (read.Value.More)
                continue;
            long remaining = deadline - Environment.TickCount64;
            if (remaining <= 0 || !await database.WaitForWriteAsync(position, TimeSpan.FromMilliseconds(remaining), stop))
                break;
        }

        context.Response.ContentType = JsonWriters.ContentType;
        Utf8JsonWriter writer = JsonWriters.Rent(context.Response.BodyWriter);
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach (ChangeRecord change in changes)
            ChangeJson.Write(writer, change, database.DatabaseIdBytes);
        writer.WriteEndArray();
        writer.WriteNumber("LastEtag"u8, position);
        writer.WriteEndObject();
        JsonWriters.Return(writer);
        await context.Response.BodyWriter.FlushAsync(context.RequestAborted);
    }

    private static async ValueTask ContinuousAsync(HttpContext context, Database database, FeedRequest feed, long position, CancellationToken stop)
    {
        HttpResponse response = context.Response;
        response.ContentType = NdjsonContentType;
        response.Headers.CacheControl = "no-cache";
        await response.StartAsync(context.RequestAborted);
        await response.BodyWriter.FlushAsync(context.RequestAborted);

        var writer = new Utf8JsonWriter(response.BodyWriter, s_options);
        var changes = new List<ChangeRecord>(ContinuousChunk);
        long deadline = feed.Timeout is { } timeout ? Environment.TickCount64 + (long)timeout.TotalMilliseconds : long.MaxValue;
        long sent = 0;
        while (!stop.IsCancellationRequested)
        {
            changes.Clear();
            (long UpToEtag, bool More)? read = ChangeReader.Read(database, position, feed.Filter, (int)Math.Min(ContinuousChunk, feed.Limit - sent), feed.IncludeDocuments, changes);
            if (read is null)
                break;
            foreach (ChangeRecord change in changes)
            {
                ChangeJson.Write(writer, change, database.DatabaseIdBytes);
                EndLine(writer, response);
            }

            position = read.Value.UpToEtag;
            sent += changes.Count;
            await response.BodyWriter.FlushAsync(context.RequestAborted);
            if (sent >= feed.Limit)
                break;
            if (read.Value.More)
                continue;

            long remaining = deadline - Environment.TickCount64;
            if (remaining <= 0)
                break;
            TimeSpan wait = TimeSpan.FromMilliseconds(Math.Min(remaining, (long)feed.Heartbeat.TotalMilliseconds));
            if (!await database.WaitForWriteAsync(position, wait, stop) && !stop.IsCancellationRequested)
            {
                response.BodyWriter.Write("\n"u8);
                await response.BodyWriter.FlushAsync(context.RequestAborted);
            }
        }

        context.RequestAborted.ThrowIfCancellationRequested();
        writer.WriteStartObject();
        writer.WriteNumber("LastEtag"u8, position);
        writer.WriteEndObject();
        EndLine(writer, response);
        await response.BodyWriter.FlushAsync(context.RequestAborted);
    }

    private static void EndLine(Utf8JsonWriter writer, HttpResponse response)
    {
        writer.Flush();
        response.BodyWriter.Write("\n"u8);
        writer.Reset(response.BodyWriter);
    }

    private static FolioHttpException Closing(Database database) =>
        new(StatusCodes.Status404NotFound, "Database not found", $"The database '{database.Name}' is being closed or deleted.", ProblemTypes.DatabaseNotFound);
}
