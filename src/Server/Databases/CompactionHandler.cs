using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Operations;
using Folio.Server.RavenProtocol;
using Folio.Server.Routing;
using Folio.Storage.Compaction;

namespace Folio.Server.Databases;

/// <summary>
/// <c>POST /admin/databases/{db}/compact</c> and <c>POST /admin/databases/{db}/indexes/compact?name=</c>: rewrite the
/// database's data file, or an index's, into a new one without the pages deletes and updates freed, as a tracked
/// operation (answered 202 with its id; progress through <c>GET /databases/{db}/operations/state?id=</c>, and for the
/// documents <c>Compaction</c> in the database's stats while it runs). One compaction per database at a time.
/// </summary>
public sealed class CompactionHandler(DatabaseRegistry databases, ILogger<CompactionHandler> logger)
{
    /// <summary>Starts the compaction; answers 202 <c>{"OperationId","OperationNodeTag"}</c>, or 409 while one runs.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the operation is registered and the answer written.</returns>
    [FolioRoute("POST", "/admin/databases/{db}/compact", Access = RouteAccess.Admin)]
    public ValueTask Compact(FolioRequest request) => StartAsync(request, index: null);

    /// <summary>
    /// Starts the compaction of index <c>?name=</c> (each storage environment it keeps: a map/reduce index has two);
    /// answers 202 <c>{"OperationId","OperationNodeTag"}</c>, 404 for an unknown index, 400 for an index on the Lucene
    /// engine (Lucene merges its own segment files), or 409 while a compaction of the database or an index runs.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the operation is registered and the answer written.</returns>
    [FolioRoute("POST", "/admin/databases/{db}/indexes/compact", Access = RouteAccess.Admin)]
    public ValueTask CompactIndex(FolioRequest request) => StartAsync(request, QueryParameters.Required(request.Request, "name"));

    private async ValueTask StartAsync(FolioRequest request, string? index)
    {
        long id;
        using (var lease = databases.Lease(request.DatabaseSpan))
        {
            var database = lease.Database;
            var (target, compact) = index is null ? (Database.DocumentsTarget, CompactDocuments(database)) : ("index:" + index, CompactIndex(database, index));
            if (!database.TryBeginCompaction())
            {
                throw new FolioHttpException(
                    StatusCodes.Status409Conflict,
                    "Compaction in progress",
                    $"The database '{database.Name}' is being compacted already; poll its operation or wait for it to end.",
                    ProblemTypes.CompactionInProgress);
            }
            try
            {
                var operation = database.Operations.Register(OperationKind.Compaction, target);
                id = operation.Id;
                _ = new CompactionRunner(database, operation, compact, logger).Start();
            }
            catch
            {
                database.EndCompaction(null, target);
                throw;
            }
        }
        request.Response.StatusCode = StatusCodes.Status202Accepted;
        await JsonResponse.WriteAsync(request.Response, id, WriteStarted, request.Aborted);
    }

    private static Func<Action<CompactionProgress>, CancellationToken, CompactionResult> CompactDocuments(Database database) =>
        (progress, stop) => database.Store.Compact(progress, stop);

    private static Func<Action<CompactionProgress>, CancellationToken, CompactionResult> CompactIndex(Database database, string name)
    {
        var index = database.Indexes.Get(name) ?? throw new FolioHttpException(
            StatusCodes.Status404NotFound,
            "Index not found",
            $"The database '{database.Name}' has no index '{name}'.",
            ProblemTypes.IndexNotFound);
        var environments = index.StorageEnvironments;
        if (environments.Count == 0)
            throw QueryParameters.Invalid($"The index '{index.Name}' runs on the {index.SearchEngine} engine, which keeps and merges its own files; only indexes on Folio's engine are compacted.");
        return (progress, stop) =>
        {
            long before = 0, after = 0, entries = 0;
            var rounds = 0;
            var paused = TimeSpan.Zero;
            var clock = System.Diagnostics.Stopwatch.StartNew();
            foreach (var environment in environments)
            {
                var result = environment.Compact(progress, cancellation: stop);
                before += result.SizeBefore;
                after += result.SizeAfter;
                entries += result.Entries;
                rounds += result.CatchUpRounds;
                paused += result.WritesPaused;
            }
            return new CompactionResult(before, after, entries, rounds, paused, clock.Elapsed);
        };
    }

    private static void WriteStarted(Utf8JsonWriter writer, long id)
    {
        writer.WriteStartObject();
        writer.WriteNumber("OperationId"u8, id);
        writer.WriteString("OperationNodeTag"u8, NodeTopologyHandler.NodeTag);
        writer.WriteEndObject();
    }
}
