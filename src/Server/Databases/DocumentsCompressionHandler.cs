using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Databases;

/// <summary>
/// <c>/databases/{db}/admin/documents-compression/config</c>: which collections of one database compress the bodies
/// they write, in the seeds' system's shape, so its clients' <c>UpdateDocumentsCompressionConfigurationOperation</c>
/// works. The choice is kept in the database's directory, survives restarts and unloads, and applies from the next
/// write on; bodies already stored stay as they are (a compaction compresses a compressed collection's older bodies once it has a dictionary).
/// </summary>
public sealed class DocumentsCompressionHandler(DatabaseRegistry databases, Configuration.ServerOptions options)
{
    /// <summary>
    /// Answers the database's setting, <c>{"Collections","CompressAllCollections","CompressRevisions","Source":"Database"}</c>,
    /// or what it follows while it has none: <c>"Source":"Server"</c> with the server's <c>DocumentsCompression</c>
    /// as <c>CompressAllCollections</c> and its <c>UncompressedCollections</c>.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/admin/documents-compression/config", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        DocumentsCompressionSetting? own = databases.GetDocumentsCompression(request.DatabaseSpan);
        await JsonResponse.WriteAsync(request.Response, (own, databases), WriteSetting, request.Aborted);
    }

    /// <summary>
    /// Sets the database's own choice from <c>{"Collections":[…],"CompressAllCollections":bool,"CompressRevisions":bool}</c>
    /// (each optional; an empty body object compresses nothing); answers <c>{"RaftCommandIndex"}</c> as the seeds'
    /// clients expect. 400 for any other shape, nothing changed.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the setting is kept and the answer written.</returns>
    [FolioRoute("POST", "/databases/{db}/admin/documents-compression/config", Access = RouteAccess.Admin)]
    public async ValueTask Set(FolioRequest request)
    {
        DocumentsCompressionSetting setting;
        using (JsonDocument body = await JsonBody.ParseAsync(request.Request, options, request.Aborted))
        {
            var (read, error) = DocumentsCompressionSetting.Read(body.RootElement);
            setting = read ?? throw QueryParameters.Invalid(error!);
        }

        databases.SetDocumentsCompression(request.DatabaseSpan, setting);
        await JsonResponse.WriteAsync(request.Response, 1L, WriteIndex, request.Aborted);
    }

    private static void WriteSetting(Utf8JsonWriter writer, (DocumentsCompressionSetting? Own, DatabaseRegistry Databases) state)
    {
        if (state.Own is { } own)
            own.Write(writer, "Database");
        else
            DocumentsCompressionSetting.OfServer(state.Databases.ServerCompression).Write(writer, "Server");
    }

    private static void WriteIndex(Utf8JsonWriter writer, long index)
    {
        writer.WriteStartObject();
        writer.WriteNumber("RaftCommandIndex"u8, index);
        writer.WriteEndObject();
    }
}
