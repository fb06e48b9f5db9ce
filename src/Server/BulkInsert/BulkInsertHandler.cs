using System.IO.Compression;
using System.IO.Pipelines;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Microsoft.AspNetCore.Http.Features;

namespace Folio.Server.BulkInsert;

/// <summary>
/// <c>POST /databases/{db}/bulk_insert</c>: a streamed JSON array of PUT commands, stored batch by batch
/// as it arrives, each batch one transaction through the database's merger.
/// </summary>
public sealed class BulkInsertHandler
{
    private static readonly JsonWriterOptions s_problemOptions = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;
    private readonly ILogger<BulkInsertHandler> _logger;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the document, depth and batching limits.</param>
    /// <param name="logger">Where progress and outcomes are logged.</param>
    public BulkInsertHandler(DatabaseRegistry databases, ServerOptions options, ILogger<BulkInsertHandler> logger)
    {
        _databases = databases;
        _options = options;
        _logger = logger;
    }

    /// <summary>
    /// Stores the stream and answers 201 <c>{"Documents","Bytes","LastEtag","Batches","DurationInMs","Timings"}</c>,
    /// or 204 with no body when the request carries the seeds' system's clients' operation id (<c>?id=</c>).
    /// A malformed command answers 400 (413 for an oversized document) problem+json with
    /// <c>CommandIndex</c>, <c>ByteOffset</c> and <c>Documents</c>: every command before the index is stored,
    /// none after it. A client that disconnects keeps the batches already committed; the partial one is dropped.
    /// </summary>
    /// <param name="request">The request; the body may be <c>Content-Encoding: gzip</c>.</param>
    /// <returns>Completes when the stream is stored and the answer written.</returns>
    [FolioRoute("POST", "/databases/{db}/bulk_insert", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Post(FolioRequest request)
    {
        HttpContext context = request.Context;
        Monitoring.LongRunningRequest.Mark(context);
        bool gzip = StreamedBody.IsGzip(request.Request, "bulk_insert");
        string? clientOperationId = QueryParameters.Optional(request.Request, "id");
        if (clientOperationId is not null && !long.TryParse(clientOperationId, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out _))
            throw QueryParameters.Invalid("'id' must be an operation id from /operations/next-operation-id (a whole number).");
        Database database;
        BulkInsertProgress progress;
        BulkInsertSummary summary;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            database = lease.Database;
            progress = database.BulkInserts.Begin(database.Name);
            BulkInsertLog.Started(_logger, progress.Id, database.Name, gzip ? "gzip" : "identity");
            try
            {
                StreamedBody.AllowAnyLength(context);

                using var run = new BulkInsertRun(database.Store, progress, _options.BulkInsert, _options.MaxJsonDepth, _options.MaxDocumentSizeBytes, _logger, completeAtArrayEnd: clientOperationId is not null);
                try
                {
                    summary = gzip ? await RunGzipAsync(run, request) : await run.RunAsync(request.Request.BodyReader, request.Aborted);
                }
                catch (BulkInsertCommandException e)
                {
                    BulkInsertLog.Stopped(_logger, progress.Id, database.Name, progress.Documents, progress.Batches, e.Detail);
                    await RefusedBody.DrainAsync(context, _options.RequestBodyDrainBytes, _options.RequestBodyDrainTimeout);
                    await WriteProblemAsync(request, e, progress.Documents);
                    return;
                }
                catch (InvalidDataException e)
                {
                    // The gzip stream is corrupt: nothing after this point can be trusted, as with malformed JSON.
                    string detail = $"The gzip body is corrupt after command {run.CommandsRead}: {e.Message}";
                    BulkInsertLog.Stopped(_logger, progress.Id, database.Name, progress.Documents, progress.Batches, detail);
                    var problem = new BulkInsertCommandException(StatusCodes.Status400BadRequest, "Corrupt gzip body", detail, ProblemTypes.BadRequest, run.CommandsRead, -1, e);
                    await RefusedBody.DrainAsync(context, _options.RequestBodyDrainBytes, _options.RequestBodyDrainTimeout);
                    await WriteProblemAsync(request, problem, progress.Documents);
                    return;
                }
                catch (Exception e) when (e is IOException or OperationCanceledException or BadHttpRequestException)
                {
                    BulkInsertLog.Stopped(_logger, progress.Id, database.Name, progress.Documents, progress.Batches, "the client went away or sent a broken body: " + e.Message);
                    if (e is IOException && !context.Response.HasStarted)
                    {
                        // A reset connection has nobody to answer; record the outcome the way the dispatcher does for a cancel.
                        context.Response.StatusCode = Routing.RequestDispatcher.ClientClosedRequest;
                        return;
                    }

                    throw;
                }
            }
            finally
            {
                database.BulkInserts.End(progress);
            }
        }

        BulkInsertLog.Completed(
            _logger,
            progress.Id,
            database.Name,
            summary.Documents,
            Math.Round(summary.Bytes / (1024.0 * 1024.0), 1),
            summary.Batches,
            Math.Round(summary.Duration.TotalMilliseconds, 1),
            Math.Round(summary.Documents / Math.Max(summary.Duration.TotalSeconds, 1e-3)),
            Math.Round(summary.Parse.TotalMilliseconds, 1),
            Math.Round(summary.NetworkWait.TotalMilliseconds, 1),
            Math.Round(summary.CommitWait.TotalMilliseconds, 1));
        if (clientOperationId is not null)
        {
            // The seeds' system's clients send the operation id they took and read no body on success.
            request.Response.StatusCode = StatusCodes.Status204NoContent;
            return;
        }

        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, summary, WriteSummary, request.Aborted);
    }

    private static async Task<BulkInsertSummary> RunGzipAsync(BulkInsertRun run, FolioRequest request)
    {
        var inflate = new GZipStream(request.Request.Body, CompressionMode.Decompress, leaveOpen: true);
        await using (inflate.ConfigureAwait(false))
        {
            // A pipe over the inflater: TryRead then reports only what is already inflated, so "the next read
            // would wait" means the same as for a plain body.
            PipeReader reader = PipeReader.Create(inflate, new StreamPipeReaderOptions(bufferSize: 64 * 1024, minimumReadSize: 16 * 1024, leaveOpen: true));
            try
            {
                return await run.RunAsync(reader, request.Aborted).ConfigureAwait(false);
            }
            finally
            {
                await reader.CompleteAsync().ConfigureAwait(false);
            }
        }
    }

    private static void WriteSummary(Utf8JsonWriter writer, BulkInsertSummary summary)
    {
        writer.WriteStartObject();
        writer.WriteNumber("Documents"u8, summary.Documents);
        writer.WriteNumber("Bytes"u8, summary.Bytes);
        writer.WriteNumber("LastEtag"u8, summary.LastEtag);
        writer.WriteNumber("Batches"u8, summary.Batches);
        writer.WriteNumber("DurationInMs"u8, Math.Round(summary.Duration.TotalMilliseconds, 1));
        writer.WriteStartObject("Timings"u8);
        writer.WriteNumber("ParseMs"u8, Math.Round(summary.Parse.TotalMilliseconds, 1));
        writer.WriteNumber("NetworkWaitMs"u8, Math.Round(summary.NetworkWait.TotalMilliseconds, 1));
        writer.WriteNumber("CommitWaitMs"u8, Math.Round(summary.CommitWait.TotalMilliseconds, 1));
        writer.WriteEndObject();
        writer.WriteEndObject();
    }

    /// <summary>problem+json with the stream position as extension members, so clients need not parse the detail.</summary>
    private static async Task WriteProblemAsync(FolioRequest request, BulkInsertCommandException problem, long documentsStored)
    {
        HttpResponse response = request.Response;
        if (response.HasStarted)
            return;
        response.StatusCode = problem.StatusCode;
        response.ContentType = ProblemWriter.ContentType;
        using (var writer = new Utf8JsonWriter(response.BodyWriter, s_problemOptions))
        {
            writer.WriteStartObject();
            writer.WriteString("type"u8, problem.Type);
            writer.WriteString("title"u8, problem.Title);
            writer.WriteNumber("status"u8, problem.StatusCode);
            writer.WriteString("detail"u8, problem.Detail + $" The {documentsStored} commands before it are stored.");
            writer.WriteNumber("CommandIndex"u8, problem.CommandIndex);
            writer.WriteNumber("ByteOffset"u8, problem.ByteOffset);
            writer.WriteNumber("Documents"u8, documentsStored);
            writer.WriteEndObject();
        }

        try
        {
            await response.BodyWriter.FlushAsync(request.Aborted);
        }
        catch (OperationCanceledException) when (request.Aborted.IsCancellationRequested)
        {
            response.StatusCode = Routing.RequestDispatcher.ClientClosedRequest;
        }
    }
}
