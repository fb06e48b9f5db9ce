using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Reporting;

namespace Folio.Server.Databases;

/// <summary><c>GET /databases/{db}/storage</c>: how a database's documents use their data file.</summary>
public sealed class StorageReportHandler
{
    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    public StorageReportHandler(DatabaseRegistry databases)
    {
        _databases = databases;
    }

    /// <summary>
    /// Answers the data file's pages (in it, in use, free), the journals, every tree's pages, leaf fill and
    /// overflow, and each collection's documents with their raw and stored bytes and dictionary version. It
    /// walks every tree page and document header, so it costs a read of the documents' pages.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/storage", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            DocumentStore store = lease.Database.Store;
            SpaceReport space = store.Environment.ReportSpace();
            StorageStats stats = store.Environment.GetStats();
            List<CollectionStorage> collections;
            using (DocumentReader reader = store.OpenReader())
                collections = reader.CollectionStorage();
            JsonResponse.Write(request.Response, (space, stats, collections), WriteReport);
        }

        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    private static void WriteReport(Utf8JsonWriter writer, (SpaceReport Space, StorageStats Stats, List<CollectionStorage> Collections) state)
    {
        (SpaceReport space, StorageStats stats, List<CollectionStorage> collections) = state;
        writer.WriteStartObject();
        writer.WriteNumber("PageSize"u8, space.PageSize);
        writer.WriteNumber("DataFilePages"u8, space.DataFilePages);
        writer.WriteNumber("AllocatedPages"u8, space.AllocatedPages);
        writer.WriteNumber("FreePages"u8, space.FreePages);
        writer.WriteNumber("JournalFiles"u8, stats.JournalFiles);
        writer.WriteString("Zstd"u8, DocumentCompression.Implementation);
        writer.WriteStartArray("Trees"u8);
        foreach (TreeSpace tree in space.Trees)
        {
            writer.WriteStartObject();
            writer.WriteString("Name"u8, tree.Name);
            writer.WriteNumber("Entries"u8, tree.Entries);
            writer.WriteNumber("LeafPages"u8, tree.LeafPages);
            writer.WriteNumber("BranchPages"u8, tree.BranchPages);
            writer.WriteNumber("OverflowPages"u8, tree.OverflowPages);
            writer.WriteNumber("LeafFill"u8, Math.Round(tree.LeafFill, 4));
            writer.WriteNumber("OverflowFill"u8, Math.Round(tree.OverflowFill, 4));
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteStartArray("Collections"u8);
        foreach (CollectionStorage collection in collections)
        {
            writer.WriteStartObject();
            writer.WriteString("Name"u8, collection.Name);
            writer.WriteNumber("Documents"u8, collection.Documents);
            writer.WriteNumber("RawBytes"u8, collection.RawBytes);
            writer.WriteNumber("StoredBytes"u8, collection.StoredBytes);
            writer.WriteNumber("CompressedDocuments"u8, collection.CompressedDocuments);
            writer.WriteNumber("DictionaryVersion"u8, collection.DictionaryVersion);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }
}
