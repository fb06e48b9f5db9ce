using System.Buffers;
using System.IO.Compression;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Transfer;

/// <summary>
/// <c>GET /databases/{db}/export</c>: the whole database as NDJSON, first every document in etag order (each as
/// stored, its <c>@metadata</c> naming its id and collection), then one <c>{"@index": definition}</c> line per
/// index that is not automatic. It reads from one snapshot, so writes go on while it streams and the export is
/// the database exactly as it was when the request began. <see cref="ImportHandler"/> reads it back.
/// </summary>
public sealed class ExportHandler
{
    /// <summary>The property an index line of an export holds its definition in.</summary>
    public const string IndexProperty = "@index";

    private const int FlushThresholdBytes = 64 * 1024;
    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    public ExportHandler(DatabaseRegistry databases)
    {
        _databases = databases;
    }

    /// <summary>Streams the export; <c>?compress=gzip</c> answers it gzipped as <c>application/gzip</c>, for a file.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the last line is sent.</returns>
    [FolioRoute("GET", "/databases/{db}/export", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        bool gzip = QueryParameters.Optional(request.Request, "compress") switch
        {
            null or "none" => false,
            "gzip" => true,
            var other => throw QueryParameters.Invalid($"'compress' must be 'gzip' or 'none', not '{other}'."),
        };

        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        Database database = lease.Database;
        using DocumentReader reader = database.Store.OpenReader();
        IReadOnlyList<DocumentIndex> indexes = database.Indexes.All;

        HttpResponse response = request.Response;
        response.ContentType = gzip ? "application/gzip" : "application/x-ndjson";
        response.Headers.ContentDisposition = $"attachment; filename=\"{database.Name}.ndjson{(gzip ? ".gz" : string.Empty)}\"";
        Stream output = gzip ? new GZipStream(response.Body, CompressionLevel.Fastest, leaveOpen: true) : response.Body;
        var buffer = new ArrayBufferWriter<byte>(FlushThresholdBytes * 2);
        try
        {
            DocumentCursor cursor = reader.ByEtag();
            while (cursor.MoveNext())
            {
                buffer.Write(cursor.Current.Json);
                buffer.Write("\n"u8);
                if (buffer.WrittenCount >= FlushThresholdBytes)
                    await FlushAsync(output, buffer, request.Aborted);
            }

            foreach (DocumentIndex index in indexes)
            {
                if (index.Definition.IsAuto)
                    continue;
                using (var writer = new Utf8JsonWriter(buffer))
                {
                    writer.WriteStartObject();
                    writer.WritePropertyName(IndexProperty);
                    IndexDefinitionJson.Write(writer, index.Definition);
                    writer.WriteEndObject();
                }

                buffer.Write("\n"u8);
            }

            await FlushAsync(output, buffer, request.Aborted);
        }
        finally
        {
            if (gzip)
                await output.DisposeAsync();
        }
    }

    private static async ValueTask FlushAsync(Stream output, ArrayBufferWriter<byte> buffer, CancellationToken cancellationToken)
    {
        await output.WriteAsync(buffer.WrittenMemory, cancellationToken);
        buffer.Clear();
    }
}
