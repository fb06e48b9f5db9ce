using System.IO.Pipelines;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;
using Microsoft.Extensions.Primitives;

namespace Folio.Server.Documents;

/// <summary>
/// <c>/databases/{db}/docs</c>: load one or many documents by id (with includes), list them by id
/// prefix, store and delete them. Loading one id and storing one document are the hot paths: they
/// use no LINQ or closures and copy stored bytes straight into the response.
/// </summary>
public sealed class DocumentsHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the document, depth and page limits.</param>
    public DocumentsHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    private static ReadOnlySpan<byte> OneResultStart => "{\"Results\":["u8;

    private static ReadOnlySpan<byte> OneResultEnd => "],\"Includes\":{}}"u8;

    /// <summary>
    /// <c>GET</c>/<c>HEAD</c> with <c>id=</c>: one id answers 404 when missing, carries the ETag and
    /// honours <c>If-None-Match</c>; several ids answer <c>null</c> for each missing one. Without
    /// <c>id=</c>: a page of documents in id order, of those starting with <c>startsWith=</c> if given.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/docs", Access = RouteAccess.DatabaseRead)]
    public ValueTask Get(FolioRequest request)
    {
        IQueryCollection query = request.Request.Query;
        StringValues ids = query["id"];
        if (ids.Count == 1 && !query.ContainsKey("include"))
            return GetOne(request, ids[0] ?? string.Empty);
        if (ids.Count > 0)
            return GetByIdsAsync(request, ids);
        return ListByPrefixAsync(request);
    }

    /// <summary>
    /// <c>POST</c> with <c>{"Ids":[…]}</c>: the documents of more ids than a URL holds (the seeds' system's clients switch to
    /// it past about 1,024), answered as a GET with those ids (<c>null</c> for each missing one; <c>include=</c> from the query).
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("POST", "/databases/{db}/docs", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Post(FolioRequest request)
    {
        const string Shape = "The body must be {\"Ids\":[id, …]} with at least one id.";
        string[] ids;
        using (JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted))
        {
            JsonElement root = body.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !(root.TryGetProperty("Ids", out JsonElement list) || root.TryGetProperty("ids", out list))
                || list.ValueKind != JsonValueKind.Array || list.GetArrayLength() == 0)
                throw QueryParameters.Invalid(Shape);
            ids = new string[list.GetArrayLength()];
            int i = 0;
            foreach (JsonElement id in list.EnumerateArray())
                ids[i++] = id.ValueKind == JsonValueKind.String ? id.GetString()! : throw QueryParameters.Invalid(Shape);
        }

        await GetByIdsAsync(request, ids);
    }

    /// <summary><c>PUT ?id=</c> with the document as the body; <c>If-Match</c> makes it conditional. Answers 201 <c>{"Id","ChangeVector"}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the document is durable and the answer written.</returns>
    [FolioRoute("PUT", "/databases/{db}/docs", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Put(FolioRequest request)
    {
        string id = QueryParameters.Required(request.Request, "id");
        DocumentIdRules.Validate(id);
        string? expected = ChangeVectorHeaders.IfMatch(request.Request);
        WriteResult result;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            PreparedDocument document;
            using (RequestBody body = await RequestBody.ReadAsync(request.Request, _options.MaxDocumentSizeBytes, request.Aborted))
                document = PreparedDocument.Parse(body.Span, _options.MaxJsonDepth);

            // Not cancelled with the request: once queued, a write completes or fails as a whole.
            result = await lease.Database.Store.PutAsync(id, document, expected);
        }

        HttpResponse response = request.Response;
        response.StatusCode = StatusCodes.Status201Created;
        response.Headers.ETag = ChangeVectorHeaders.ETag(result.ChangeVector!);
        await JsonResponse.WriteAsync(response, result, WritePutResult, request.Aborted);
    }

    /// <summary><c>DELETE ?id=</c>; <c>If-Match</c> makes it conditional. Answers 204 whether or not the document existed.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the delete is durable.</returns>
    [FolioRoute("DELETE", "/databases/{db}/docs", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Delete(FolioRequest request)
    {
        string id = QueryParameters.Required(request.Request, "id");
        DocumentIdRules.Validate(id);
        string? expected = ChangeVectorHeaders.IfMatch(request.Request);
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
            await lease.Database.Store.DeleteAsync(id, expected);

        request.Response.StatusCode = StatusCodes.Status204NoContent;
    }

    private ValueTask GetOne(FolioRequest request, string id)
    {
        DocumentIdRules.Validate(id);
        HttpResponse response = request.Response;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            Database database = lease.Database;
            using DocumentReader reader = database.Store.OpenReader();
            if (!reader.TryGet(id, out Document document))
                throw DocumentNotFound(id);

            response.Headers.ETag = ChangeVectorHeaders.ETag(document.Etag, database);
            if (ChangeVectorHeaders.IfNoneMatchHits(request.Request.Headers.IfNoneMatch, document.Etag, database))
            {
                response.StatusCode = StatusCodes.Status304NotModified;
                return ValueTask.CompletedTask;
            }

            ReadOnlySpan<byte> json = document.Json;
            int length = OneResultStart.Length + json.Length + OneResultEnd.Length;
            response.ContentType = JsonWriters.ContentType;
            response.ContentLength = length;
            if (HttpMethods.IsHead(request.Request.Method))
                return ValueTask.CompletedTask;

            // The answer is a fixed frame around the stored bytes, so it is copied, not serialized.
            PipeWriter body = response.BodyWriter;
            Span<byte> output = body.GetSpan(length);
            OneResultStart.CopyTo(output);
            json.CopyTo(output[OneResultStart.Length..]);
            OneResultEnd.CopyTo(output[(OneResultStart.Length + json.Length)..]);
            body.Advance(length);
        }

        return FlushAsync(response.BodyWriter, request.Aborted);
    }

    private ValueTask GetByIdsAsync(FolioRequest request, StringValues idValues)
    {
        var ids = new string[idValues.Count];
        for (int i = 0; i < ids.Length; i++)
            ids[i] = idValues[i] ?? string.Empty;
        return GetByIdsAsync(request, ids);
    }

    private async ValueTask GetByIdsAsync(FolioRequest request, string[] ids)
    {
        foreach (string id in ids)
            DocumentIdRules.Validate(id);

        IncludeSet? includes = IncludeSet.FromQuery(request.Request);
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            using DocumentReader reader = lease.Database.Store.OpenReader();
            if (ids.Length == 1)
                WriteOneWithIncludes(request, lease.Database, reader, ids[0], includes);
            else
                await DocumentResults.WriteManyAsync(request, reader, ids, includes);
        }

        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    private static void WriteOneWithIncludes(FolioRequest request, Database database, DocumentReader reader, string id, IncludeSet? includes)
    {
        if (!reader.TryGet(id, out Document document))
            throw DocumentNotFound(id);

        HttpResponse response = request.Response;
        response.Headers.ETag = ChangeVectorHeaders.ETag(document.Etag, database);
        if (ChangeVectorHeaders.IfNoneMatchHits(request.Request.Headers.IfNoneMatch, document.Etag, database))
        {
            response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }

        response.ContentType = JsonWriters.ContentType;
        Utf8JsonWriter writer = JsonWriters.Rent(response.BodyWriter);
        DocumentResults.WriteOne(writer, reader, document.Json, includes);
        JsonWriters.Return(writer);
    }

    private async ValueTask ListByPrefixAsync(FolioRequest request)
    {
        string prefix = QueryParameters.Optional(request.Request, "startsWith") ?? string.Empty;
        PageRequest page = PageRequest.Parse(request.Request, _options.MaxPageSize);
        IncludeSet? includes = IncludeSet.FromQuery(request.Request);
        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        using DocumentReader reader = lease.Database.Store.OpenReader();
        await DocumentResults.WritePageAsync(request, reader, reader.ByIdPrefix(prefix), page, includes, _options.MaxPageSize);
    }

    private static async ValueTask FlushAsync(PipeWriter body, CancellationToken cancellationToken) =>
        await body.FlushAsync(cancellationToken);

    private static void WritePutResult(Utf8JsonWriter writer, WriteResult result)
    {
        writer.WriteStartObject();
        writer.WriteString("Id"u8, result.Id);
        writer.WriteString("ChangeVector"u8, result.ChangeVector);
        writer.WriteEndObject();
    }

    private static FolioHttpException DocumentNotFound(string id) =>
        new(StatusCodes.Status404NotFound, "Document not found", $"There is no document with id '{id}'.", ProblemTypes.DocumentNotFound);
}
