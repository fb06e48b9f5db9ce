using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary><c>/databases/{db}/collections/…</c>: a collection's documents page by page, and the counts per collection.</summary>
public sealed class CollectionsHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the page cap.</param>
    public CollectionsHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary><c>GET ?name=Orders&amp;start=&amp;pageSize=</c>: the collection's documents in write (etag) order.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the page is written.</returns>
    [FolioRoute("GET", "/databases/{db}/collections/docs", Access = RouteAccess.DatabaseRead)]
    public async ValueTask GetDocuments(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        if (name.Length == 0)
            throw QueryParameters.Invalid("The query parameter 'name' must name a collection.");
        PageRequest page = PageRequest.Parse(request.Request, _options.MaxPageSize);
        IncludeSet? includes = IncludeSet.FromQuery(request.Request);
        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        using DocumentReader reader = lease.Database.Store.OpenReader();
        await DocumentResults.WritePageAsync(request, reader, reader.ByCollection(name), page, includes, _options.MaxPageSize);
    }

    /// <summary><c>GET</c>: <c>{"CountOfDocuments","Collections":{"Users":12,…}}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/collections/stats", Access = RouteAccess.DatabaseRead)]
    public async ValueTask GetStats(FolioRequest request)
    {
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        using (DocumentReader reader = lease.Database.Store.OpenReader())
            JsonResponse.Write(request.Response, reader, WriteStats);

        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    private static void WriteStats(Utf8JsonWriter writer, DocumentReader reader)
    {
        writer.WriteStartObject();
        writer.WriteNumber("CountOfDocuments"u8, reader.CountOfDocuments);
        writer.WriteStartObject("Collections"u8);
        foreach (KeyValuePair<string, long> collection in reader.Collections())
            writer.WriteNumber(collection.Key, collection.Value);
        writer.WriteEndObject();
        writer.WriteEndObject();
    }
}
