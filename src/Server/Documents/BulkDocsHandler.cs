using System.Buffers.Text;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary><c>POST /databases/{db}/bulk_docs</c>: PUT and DELETE commands in one transaction, all or nothing.</summary>
public sealed class BulkDocsHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the body, document and depth limits.</param>
    public BulkDocsHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>
    /// Runs the commands in one transaction and answers 201
    /// <c>{"Results":[{"Type","@id","@collection","@change-vector","@last-modified"}…]}</c> in command order
    /// (a DELETE answers <c>{"Type","@id","Id","Deleted"}</c>). A failing command (bad input, a stale change
    /// vector) fails the batch and nothing is written.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the batch is durable and the answer written.</returns>
    [FolioRoute("POST", "/databases/{db}/bulk_docs", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Post(FolioRequest request)
    {
        List<DocumentCommand> commands;
        IReadOnlyList<WriteResult?> results;
        // Read before the batch commits: a bad value must refuse the request without writing anything.
        TimeSpan? wait = QueryParameters.Optional(request.Request, "waitForIndexesTimeout") is { } waitText ? QueryParameters.Duration(waitText) : null;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            using (RequestBody body = await RequestBody.ReadAsync(request.Request, _options.MaxRequestBodySizeBytes, request.Aborted))
                commands = BulkDocsParser.Parse(body.Span, _options.MaxJsonDepth, _options.MaxDocumentSizeBytes);

            // An empty batch would still cost a commit and an fsync for nothing.
            results = commands.Count == 0 ? [] : await lease.Database.Store.BatchAsync(commands);
            if (wait is { } timeout)
                await WaitForIndexesAsync(lease.Database, results, timeout, request.Aborted);
        }

        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, (commands, results), WriteResults, request.Aborted);
    }

    /// <summary>
    /// Returns once every index over a collection the batch wrote to has indexed the batch; a timeout
    /// answers 504 (the batch itself is committed, so a client must not simply retry it).
    /// </summary>
    private static async Task WaitForIndexesAsync(Database database, IReadOnlyList<WriteResult?> results, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var collections = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        long lastEtag = 0;
        foreach (var result in results)
        {
            if (result is null)
                continue;
            collections.Add(result.Collection);
            lastEtag = Math.Max(lastEtag, result.Etag);
        }
        var deadline = DateTime.UtcNow + timeout;
        foreach (var index in database.Indexes.All)
        {
            if (!Covers(index.Definition.Collections, collections))
                continue;
            var remaining = deadline - DateTime.UtcNow;
            if (remaining < TimeSpan.Zero || !await index.WaitForEtagAsync(lastEtag, remaining, cancellationToken))
            {
                throw new FolioHttpException(
                    StatusCodes.Status504GatewayTimeout,
                    "Indexes did not catch up",
                    $"The batch is committed (up to etag {lastEtag}), but index '{index.Name}' had not indexed it within {timeout}.",
                    ProblemTypes.IndexesTimeout);
            }
        }
    }

    private static bool Covers(IReadOnlyList<string> indexed, HashSet<string> written)
    {
        foreach (var collection in indexed)
        {
            if (written.Contains(collection))
                return true;
        }
        return false;
    }

    private static void WriteResults(Utf8JsonWriter writer, (List<DocumentCommand> Commands, IReadOnlyList<WriteResult?> Results) batch)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        for (int i = 0; i < batch.Commands.Count; i++)
            WriteResult(writer, batch.Commands[i], batch.Results[i]);
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WriteResult(Utf8JsonWriter writer, DocumentCommand command, WriteResult? result)
    {
        writer.WriteStartObject();
        if (command.Type == DocumentCommandType.Delete)
        {
            writer.WriteString("Type"u8, "DELETE"u8);
            writer.WriteString("@id"u8, result?.Id ?? command.Id);
            // The seeds' system's clients read the deleted id as "Id".
            writer.WriteString("Id"u8, result?.Id ?? command.Id);
            writer.WriteBoolean("Deleted"u8, result is not null);
        }
        else
        {
            writer.WriteString("Type"u8, "PUT"u8);
            writer.WriteString("@id"u8, result!.Id);
            writer.WriteString("@collection"u8, result.Collection);
            writer.WriteString("@change-vector"u8, result.ChangeVector);
            WriteDate(writer, result.LastModified);
        }

        writer.WriteEndObject();
    }

    private static void WriteDate(Utf8JsonWriter writer, DateTime lastModified)
    {
        // The same round-trip format the store writes into @metadata, so both read alike.
        Span<byte> date = stackalloc byte[40];
        Utf8Formatter.TryFormat(lastModified, date, out int written, new System.Buffers.StandardFormat('O'));
        writer.WriteString("@last-modified"u8, date[..written]);
    }
}
