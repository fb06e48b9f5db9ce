using System.Text.Json;
using Folio.Server.BulkInsert;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage;
using Folio.Storage.Documents;

namespace Folio.Server.Databases;

/// <summary><c>GET /databases/{db}/stats</c>: counts and sizes of one database.</summary>
public sealed class DatabaseStatsHandler
{
    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    public DatabaseStatsHandler(DatabaseRegistry databases)
    {
        _databases = databases;
    }

    /// <summary>
    /// Answers <c>{"CountOfDocuments","CountOfIndexes","LastDocEtag","SizeOnDisk","DatabaseId","CountOfTombstones",
    /// "JournalBytesWritten","MergedTransactions","BulkInsertsInProgress","BulkInserts","CompactionEstimate","Compaction","LastCompaction","Indexes"}</c>; <c>SizeOnDisk</c> is the
    /// data file's size in bytes, <c>JournalBytesWritten</c> counts since the database opened.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/stats", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            StorageStats storage = lease.Database.Store.Environment.GetStats();
            using DocumentReader reader = lease.Database.Store.OpenReader();
            JsonResponse.Write(request.Response, (lease.Database, storage, reader), WriteStats);
        }

        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    private static void WriteStats(Utf8JsonWriter writer, (Database Database, StorageStats Storage, DocumentReader Reader) state)
    {
        (Database database, StorageStats storage, DocumentReader reader) = state;
        writer.WriteStartObject();
        writer.WriteNumber("CountOfDocuments"u8, reader.CountOfDocuments);
        writer.WriteNumber("CountOfIndexes"u8, database.Indexes.All.Count);
        writer.WriteNumber("LastDocEtag"u8, reader.LastEtag);
        writer.WriteNumber("SizeOnDisk"u8, storage.DataFilePages * StorageLimits.PageSize);
        writer.WriteString("DatabaseId"u8, database.Store.DatabaseId);
        writer.WriteNumber("CountOfTombstones"u8, reader.CountOfTombstones);
        writer.WriteNumber("JournalBytesWritten"u8, storage.JournalBytesWritten);
        writer.WriteNumber("MergedTransactions"u8, database.Store.Environment.Merger.MergedTransactions);
        BulkInsertStats.Write(writer, database.BulkInserts);
        CompactionStats.Write(writer, storage.Compaction, database.LastCompaction, database.LastCompactionEstimate);
        WriteIndexes(writer, database, reader);
        writer.WriteEndObject();
    }

    // The seeds' system's clients wait for indexing by polling this list until no index is stale.
    private static void WriteIndexes(Utf8JsonWriter writer, Database database, DocumentReader reader)
    {
        writer.WriteStartArray("Indexes"u8);
        foreach (var index in database.Indexes.All)
        {
            var definition = index.Definition;
            writer.WriteStartObject();
            writer.WriteString("Name"u8, index.Name);
            writer.WriteBoolean("IsStale"u8, index.IsStale(reader));
            writer.WriteString("State"u8, index.Failure is null ? "Normal"u8 : "Error"u8);
            writer.WriteString("LockMode"u8, "Unlock"u8);
            writer.WriteString("Priority"u8, "Normal"u8);
            writer.WriteString("Type"u8, definition.IsAuto
                ? (definition.Reduce is null ? "AutoMap"u8 : "AutoMapReduce"u8)
                : (definition.Reduce is null ? "Map"u8 : "MapReduce"u8));
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
    }
}
