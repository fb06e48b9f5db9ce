using System.IO.Compression;
using System.IO.Pipelines;
using System.Text.Json;
using Folio.Server.BulkInsert;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Transfer;

/// <summary>
/// <c>POST /databases/{db}/import</c>: reads what <see cref="ExportHandler"/> writes. Document lines stream through
/// the bulk insert path (<see cref="BulkInsertRun"/>: batched transactions, back pressure, progress in the
/// database's stats); index lines are put once the documents are stored, so each index builds once over all of them.
/// </summary>
public sealed class ImportHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;
    private readonly ILogger<ImportHandler> _logger;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">The bulk insert and document limits.</param>
    /// <param name="logger">Where the bulk insert logs its progress.</param>
    public ImportHandler(DatabaseRegistry databases, ServerOptions options, ILogger<ImportHandler> logger)
    {
        _databases = databases;
        _options = options;
        _logger = logger;
    }

    /// <summary>
    /// Imports an NDJSON export (<c>Content-Encoding: gzip</c> or <c>Content-Type: application/gzip</c> for a
    /// gzipped one) and answers 201 <c>{"Documents","Indexes","Lines","DurationInMs"}</c>. A line that is neither a
    /// document with <c>@metadata.@id</c> nor <c>{"@index": definition}</c> answers 400 naming it: the documents of
    /// the lines before it are stored, as a bulk insert stores the commands before a bad one, and no index is put.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the import is stored and answered.</returns>
    [FolioRoute("POST", "/databases/{db}/import", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Post(FolioRequest request)
    {
        HttpContext context = request.Context;
        Monitoring.LongRunningRequest.Mark(context);
        // A gzipped export file is also sent as itself (Content-Type: application/gzip) rather than as an encoding.
        bool gzip = StreamedBody.IsGzip(request.Request, "import")
            || string.Equals(request.Request.ContentType, "application/gzip", StringComparison.OrdinalIgnoreCase);
        StreamedBody.AllowAnyLength(context);

        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        Database database = lease.Database;
        BulkInsertProgress progress = database.BulkInserts.Begin(database.Name);
        try
        {
            using var run = new BulkInsertRun(database.Store, progress, _options.BulkInsert, _options.MaxJsonDepth, _options.MaxDocumentSizeBytes, _logger);
            var commands = new Pipe();
            Task<BulkInsertSummary> storing = run.RunAsync(commands.Reader, request.Aborted);
            var lines = new ImportLineReader(commands.Writer, _options.MaxJsonDepth);
            ImportLineException? bad = null;
            await using (Stream body = gzip ? new GZipStream(request.Request.Body, CompressionMode.Decompress, leaveOpen: true) : request.Request.Body)
            {
                try
                {
                    await lines.ReadAsync(body, request.Aborted);
                }
                catch (ImportLineException e)
                {
                    bad = e;
                }
                catch (InvalidDataException e)
                {
                    bad = new ImportLineException(lines.Lines + 1, $"the gzip body is corrupt: {e.Message}", e);
                }
                finally
                {
                    lines.Finish();
                    await commands.Writer.CompleteAsync();
                }
            }

            BulkInsertSummary summary;
            try
            {
                summary = await storing;
            }
            catch (BulkInsertCommandException e)
            {
                throw new FolioHttpException(e.StatusCode, e.Title, $"Document {e.CommandIndex + 1} of the import: {e.Detail} The {progress.Documents} documents before it are stored.", e.Type);
            }

            if (bad is not null)
                throw new FolioHttpException(StatusCodes.Status400BadRequest, "Bad import line", $"{bad.Message} The {summary.Documents} documents of the lines before it are stored; no index was put.", ProblemTypes.InvalidImport);
            if (lines.Definitions.Count > 0)
                database.Indexes.Put(lines.Definitions);

            request.Response.StatusCode = StatusCodes.Status201Created;
            await JsonResponse.WriteAsync(request.Response, (summary, lines.Definitions.Count, lines.Lines), WriteSummary, request.Aborted);
        }
        finally
        {
            database.BulkInserts.End(progress);
        }
    }

    private static void WriteSummary(Utf8JsonWriter writer, (BulkInsertSummary Summary, int Indexes, long Lines) state)
    {
        writer.WriteStartObject();
        writer.WriteNumber("Documents"u8, state.Summary.Documents);
        writer.WriteNumber("Indexes"u8, state.Indexes);
        writer.WriteNumber("Lines"u8, state.Lines);
        writer.WriteNumber("DurationInMs"u8, Math.Round(state.Summary.Duration.TotalMilliseconds, 1));
        writer.WriteEndObject();
    }
}
