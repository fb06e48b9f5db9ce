using System.Buffers;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Indexes;

/// <summary>Index management: put, list, delete and reset definitions, and indexing statistics.</summary>
public sealed class IndexesHandler(DatabaseRegistry databases, ServerOptions options)
{
    /// <summary>
    /// <c>PUT /databases/{db}/indexes</c> with <c>{"Indexes":[definition…]}</c>: creates new indexes,
    /// leaves unchanged ones, and rebuilds changed ones side by side. Nothing changes if any definition is bad.
    /// Definitions in the seeds' system's shape (<c>{"Name","Maps":[…]}</c>) are translated as on
    /// <c>PUT /databases/{db}/admin/indexes</c>, and each result then also carries <c>Index</c> and <c>RaftCommandIndex</c>.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("PUT", "/databases/{db}/indexes", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Put(FolioRequest request)
    {
        using var body = await JsonBody.ParseAsync(request.Request, options, request.Aborted);
        if (body.RootElement.ValueKind != JsonValueKind.Object || !body.RootElement.TryGetProperty("Indexes", out var list) || list.ValueKind != JsonValueKind.Array)
            throw QueryParameters.Invalid("The body must be {\"Indexes\":[definition, …]}.");
        var definitions = new List<IndexDefinition>();
        var settings = new List<IndexSettingsRequest>();
        var position = 0;
        // The seeds' system's clients send JavaScript index definitions ({"Maps":[…]}) here too.
        var seedsShape = false;
        foreach (var item in list.EnumerateArray())
        {
            try
            {
                var isSeedsShape = item.ValueKind == JsonValueKind.Object && item.TryGetProperty("Maps", out _);
                seedsShape |= isSeedsShape;
                definitions.Add(isSeedsShape ? RavenProtocol.Indexes.RavenIndexDefinition.Translate(item) : IndexDefinitionJson.Parse(item));
                if (IndexSettingsRequest.Read(item, definitions[^1].Name) is { } asked)
                    settings.Add(asked);
            }
            catch (IndexDefinitionException e)
            {
                throw new IndexDefinitionException($"Index {position}: {e.Message}");
            }
            position++;
        }
        if (definitions.Count == 0)
            throw QueryParameters.Invalid("\"Indexes\" is empty.");

        using (var lease = databases.Lease(request.DatabaseSpan))
        {
            lease.Database.Indexes.Put(definitions);
            IndexSettingsRequest.Apply(lease.Database.Indexes, settings);
        }
        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, (definitions, seedsShape), WritePutResults, request.Aborted);
    }

    /// <summary>
    /// <c>GET /databases/{db}/indexes[?name=]</c>: the definitions (404 when a named one does not exist); with
    /// <c>namesOnly=true</c> (as the seeds' system's clients ask) <c>{"Results":["name"…]}</c>, paged by <c>start</c> and <c>pageSize</c>.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/indexes", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        var name = QueryParameters.Optional(request.Request, "name");
        using (var lease = databases.Lease(request.DatabaseSpan))
        {
            var store = lease.Database.Indexes;
            IReadOnlyList<DocumentIndex> indexes = name is null ? store.All : [store.Get(name) ?? throw NotFound(name)];
            if (NamesOnly(request.Request))
            {
                int start = QueryParameters.NonNegativeInt32(request.Request, "start", 0);
                int pageSize = QueryParameters.NonNegativeInt32(request.Request, "pageSize", int.MaxValue);
                JsonResponse.Write(request.Response, (indexes, start, pageSize), WriteNames);
            }
            else
            {
                JsonResponse.Write(request.Response, indexes, WriteDefinitions);
            }
        }
        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    /// <summary><c>DELETE /databases/{db}/indexes?name=</c>: 204, or 404 when there is no such index.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the index is gone.</returns>
    [FolioRoute("DELETE", "/databases/{db}/indexes", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Delete(FolioRequest request) => OnNamedIndex(request, static (indexes, name) => indexes.Delete(name));

    /// <summary><c>POST /databases/{db}/indexes/reset?name=</c>: throws the index's data away and rebuilds it from the documents.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the rebuild has started.</returns>
    [FolioRoute("POST", "/databases/{db}/indexes/reset", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Reset(FolioRequest request) => OnNamedIndex(request, static (indexes, name) => indexes.Reset(name));

    /// <summary>Runs <paramref name="action"/> on the index named by <c>?name=</c>: 204 when it existed, 404 otherwise.</summary>
    private ValueTask OnNamedIndex(FolioRequest request, Func<IndexStore, string, bool> action)
    {
        var name = QueryParameters.Required(request.Request, "name");
        using (var lease = databases.Lease(request.DatabaseSpan))
        {
            if (!action(lease.Database.Indexes, name))
                throw NotFound(name);
        }
        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// <c>GET /databases/{db}/indexes/stats</c>: per index its state, how far it has indexed, whether it
    /// is stale, its entries, errors and recent batches (and the replacement being built, if any).
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/indexes/stats", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Stats(FolioRequest request)
    {
        using (var lease = databases.Lease(request.DatabaseSpan))
        using (var reader = lease.Database.Store.OpenReader())
            JsonResponse.Write(request.Response, (lease.Database.Indexes, reader), WriteAllStats);
        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    private static void WritePutResults(Utf8JsonWriter writer, (List<IndexDefinition> Definitions, bool SeedsShape) put)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach (var definition in put.Definitions)
        {
            writer.WriteStartObject();
            writer.WriteString("Name"u8, definition.Name);
            if (put.SeedsShape)
            {
                writer.WriteString("Index"u8, definition.Name);
                writer.WriteNumber("RaftCommandIndex"u8, 1);
            }
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static bool NamesOnly(HttpRequest request) => QueryParameters.Optional(request, "namesOnly") switch
    {
        null or "false" => false,
        "true" => true,
        _ => throw QueryParameters.Invalid("'namesOnly' must be true or false."),
    };

    private static void WriteNames(Utf8JsonWriter writer, (IReadOnlyList<DocumentIndex> Indexes, int Start, int PageSize) page)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        for (int i = page.Start; i < page.Indexes.Count && i - page.Start < page.PageSize; i++)
            writer.WriteStringValue(page.Indexes[i].Name);
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WriteDefinitions(Utf8JsonWriter writer, IReadOnlyList<DocumentIndex> indexes)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach (var index in indexes)
        {
            writer.WriteStartObject();
            IndexDefinitionJson.WriteProperties(writer, index.Definition);
            writer.WriteString("LockMode"u8, index.Settings.LockMode.ToString());
            writer.WriteString("Priority"u8, index.Settings.Priority.ToString());
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WriteAllStats(Utf8JsonWriter writer, (IndexStore Indexes, DocumentReader Reader) state)
    {
        var (indexes, reader) = state;
        var replacements = indexes.Replacements;
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        var one = new ArrayBufferWriter<byte>();
        foreach (var index in indexes.All)
        {
            // Each index is written apart first: one replaced or deleted while the answer is made (its files closed)
            // is left out instead of failing the whole answer halfway through.
            one.ResetWrittenCount();
            try
            {
                using var indexWriter = new Utf8JsonWriter(one);
                WriteStats(indexWriter, index, reader);
                if (replacements.TryGetValue(index.Name, out var replacement))
                {
                    indexWriter.WritePropertyName("Replacement"u8);
                    WriteStats(indexWriter, replacement, reader);
                    indexWriter.WriteEndObject();
                }
                indexWriter.WriteEndObject();
            }
            catch (ObjectDisposedException)
            {
                continue;
            }
            writer.WriteRawValue(one.WrittenSpan, skipInputValidation: true);
        }
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    /// <summary>Writes an index's statistics, leaving its object open for the caller to add to and close.</summary>
    private static void WriteStats(Utf8JsonWriter writer, DocumentIndex index, DocumentReader reader)
    {
        var stale = index.IsStale(reader);
        writer.WriteStartObject();
        writer.WriteString("Name"u8, index.Name);
        writer.WriteString("Type"u8, index.Definition.IsAuto ? "Auto" : index.Definition.Reduce is null ? "Static" : "MapReduce");
        writer.WriteString("SearchEngine"u8, index.SearchEngine);
        writer.WriteString("State"u8, index.Failure is not null ? "Error" : stale ? "Stale" : "UpToDate");
        if (index.Failure is { } failure)
            writer.WriteString("Failure"u8, failure.Message);
        writer.WriteString("Status"u8, index.Status.ToString());
        writer.WriteString("LockMode"u8, index.Settings.LockMode.ToString());
        writer.WriteString("Priority"u8, index.Settings.Priority.ToString());
        writer.WriteBoolean("IsStale"u8, stale);
        writer.WriteNumber("ProcessedEtag"u8, index.ProcessedEtag);
        writer.WriteNumber("LastDocEtag"u8, reader.LastEtag);
        writer.WriteNumber("EntriesCount"u8, index.EntryCount);
        writer.WriteNumber("SizeOnDisk"u8, index.SizeOnDisk);
        writer.WriteString("LastQueried"u8, index.LastQueried);
        writer.WriteStartArray("Collections"u8);
        foreach (var collection in index.Definition.Collections)
            writer.WriteStringValue(collection);
        writer.WriteEndArray();
        if (index.MapReduce is { } reduce)
        {
            writer.WriteStartObject("MapReduce"u8);
            writer.WriteNumber("MapEntries"u8, reduce.MapEntries);
            writer.WriteNumber("Groups"u8, reduce.Groups);
            writer.WriteNumber("LastReduceInMs"u8, Math.Round(reduce.LastReduceMs, 3));
            writer.WriteEndObject();
        }
        var (recent, total) = index.Errors;
        writer.WriteNumber("ErrorsCount"u8, total);
        writer.WriteStartArray("Errors"u8);
        foreach (var error in recent)
        {
            writer.WriteStartObject();
            writer.WriteString("At"u8, error.At);
            writer.WriteString("DocumentId"u8, error.DocumentId);
            writer.WriteString("Error"u8, error.Message);
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
        writer.WriteStartArray("RecentBatches"u8);
        foreach (var batch in index.RecentBatches)
        {
            writer.WriteStartObject();
            writer.WriteString("StartedAt"u8, batch.StartedAt);
            writer.WriteNumber("Documents"u8, batch.Documents);
            writer.WriteNumber("Deletes"u8, batch.Deletes);
            writer.WriteNumber("DurationInMs"u8, Math.Round(batch.DurationMs, 3));
            writer.WriteNumber("PerSecond"u8, Math.Round(batch.Rate, 1));
            writer.WriteNumber("UpToEtag"u8, batch.UpToEtag);
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
    }

    private static FolioHttpException NotFound(string name) =>
        new(StatusCodes.Status404NotFound, "Index not found", $"There is no index named '{name}'.", ProblemTypes.IndexNotFound);
}
