using System.Buffers;
using System.Diagnostics;
using System.IO.Compression;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Server.Databases;
using Folio.Server.Subscriptions;
using Folio.Storage.Documents;

namespace Folio.Server.Backup;

/// <summary>
/// Writes one backup file of a database from one read transaction: writers go on while it runs, and the file is the
/// database exactly as it was when the snapshot was taken. A full backup holds every document; an incremental one the
/// documents stored and deleted since the previous file of the directory's set.
/// </summary>
public sealed class BackupWriter
{
    private const int FlushThresholdBytes = 256 * 1024;
    private static readonly TimeSpan s_progressInterval = TimeSpan.FromSeconds(5);

    private readonly ILogger _logger;

    /// <summary>Creates a writer.</summary>
    /// <param name="logger">Where progress goes.</param>
    public BackupWriter(ILogger logger)
    {
        _logger = logger;
    }

    /// <summary>
    /// Backs <paramref name="database"/> up into <paramref name="directory"/>: a full backup when the directory holds no
    /// backup set yet, else an incremental one continuing the set, unless <paramref name="kind"/> asks for one.
    /// </summary>
    /// <returns>The file written, as the manifest now records it.</returns>
    /// <exception cref="BackupException">The directory cannot be created, holds another database's set, or the kind asked for does not fit it.</exception>
    public async Task<BackupFile> WriteAsync(Database database, string directory, BackupKind? kind, CancellationToken cancellationToken)
    {
        try
        {
            Directory.CreateDirectory(directory);
        }
        catch (IOException e) when (!Storage.DiskFullException.IsCause(e))
        {
            // A path the machine cannot hold a directory at (under /proc, through a file, on a read-only mount) is the
            // request's to change, not a fault of the server's.
            throw new BackupException($"The backup directory {directory} cannot be created: {e.Message}");
        }
        BackupManifest? manifest = BackupManifest.TryRead(directory);
        if (manifest is not null && !string.Equals(manifest.Database, database.Name, StringComparison.OrdinalIgnoreCase))
            throw new BackupException($"{directory} holds backups of database '{manifest.Database}'; back '{database.Name}' up into another directory.");
        BackupKind chosen = kind ?? (manifest is null ? BackupKind.Full : BackupKind.Incremental);
        if (chosen == BackupKind.Incremental && manifest is null)
            throw new BackupException($"{directory} holds no full backup for an incremental one to follow; take a full backup first.");
        if (chosen == BackupKind.Full && manifest is not null)
            throw new BackupException($"{directory} already holds a backup set of '{manifest.Database}'; a full backup starts a new set in an empty directory.");

        manifest ??= new BackupManifest(database.Name, []);
        string name = $"{manifest.Files.Count + 1:D4}-{chosen.ToString().ToLowerInvariant()}.ndjson.gz";
        string path = Path.Combine(directory, name);
        string partial = path + ".partial";
        var clock = Stopwatch.StartNew();
        BackupLog.Started(_logger, database.Name, chosen.ToString(), directory);

        // One snapshot for documents; index definitions and subscriptions are taken beside it, as they live outside the store.
        using DocumentReader reader = database.Store.OpenReader();
        var definitions = new List<IndexDefinition>();
        foreach (DocumentIndex index in database.Indexes.All)
        {
            if (!index.Definition.IsAuto)
                definitions.Add(index.Definition);
        }

        IReadOnlyList<Subscription> subscriptions = database.Subscriptions.List();
        long fromEtag = manifest.Files.Count == 0 ? 0 : manifest.Files[^1].ToEtag;
        long toEtag = reader.LastEtag;
        DateTime createdAt = DateTime.UtcNow;

        var counts = new Counts();
        string checksum;
        long bytes;
        try
        {
            await using (var file = new FileStream(partial, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16, FileOptions.Asynchronous))
            {
                var hashing = new HashingWriteStream(file);
                await using (var gzip = new GZipStream(hashing, CompressionLevel.Fastest, leaveOpen: true))
                {
                    var buffer = new ArrayBufferWriter<byte>(FlushThresholdBytes * 2);
                    using var json = new Utf8JsonWriter(buffer, new JsonWriterOptions { SkipValidation = true });
                    WriteHeader(json, buffer, definitions, subscriptions);
                    if (chosen == BackupKind.Full)
                        await WriteFullAsync(reader, json, buffer, gzip, counts, database.Name, clock, cancellationToken);
                    else
                        await WriteChangesAsync(reader, fromEtag, json, buffer, gzip, counts, database.Name, clock, cancellationToken);
                    await gzip.WriteAsync(buffer.WrittenMemory, cancellationToken);
                }

                await file.FlushAsync(cancellationToken);
                file.Flush(flushToDisk: true);
                checksum = hashing.Checksum();
                bytes = hashing.Written;
            }

            File.Move(partial, path, overwrite: true);
        }
        catch
        {
            File.Delete(partial);
            throw;
        }

        var written = new BackupFile(name, chosen, fromEtag, toEtag, counts.Documents, counts.Deletes, definitions.Count, subscriptions.Count, bytes, checksum, createdAt);
        manifest.With(written).Write(directory);
        BackupLog.Completed(_logger, database.Name, chosen.ToString(), path, counts.Documents, counts.Deletes, bytes, clock.Elapsed.TotalMilliseconds);
        return written;
    }

    private static void WriteHeader(Utf8JsonWriter json, ArrayBufferWriter<byte> buffer, List<IndexDefinition> definitions, IReadOnlyList<Subscription> subscriptions)
    {
        foreach (IndexDefinition definition in definitions)
        {
            json.WriteStartObject();
            json.WritePropertyName(BackupLines.Index);
            IndexDefinitionJson.Write(json, definition);
            json.WriteEndObject();
            EndLine(json, buffer);
        }

        foreach (Subscription subscription in subscriptions)
        {
            json.WriteStartObject();
            json.WriteStartObject(BackupLines.Subscription);
            json.WriteString("Name"u8, subscription.Name);
            json.WriteString("Query"u8, subscription.Query);
            json.WriteNumber("AcknowledgedEtag"u8, subscription.AcknowledgedEtag);
            json.WriteEndObject();
            json.WriteEndObject();
            EndLine(json, buffer);
        }
    }

    private async Task WriteFullAsync(DocumentReader reader, Utf8JsonWriter json, ArrayBufferWriter<byte> buffer, Stream output, Counts counts, string database, Stopwatch clock, CancellationToken cancellationToken)
    {
        DocumentCursor cursor = reader.ByEtag();
        while (cursor.MoveNext())
        {
            WriteDocument(json, buffer, cursor.Current);
            counts.Documents++;
            await FlushIfFullAsync(buffer, output, counts, database, clock, cancellationToken);
        }
    }

    private async Task WriteChangesAsync(DocumentReader reader, long fromEtag, Utf8JsonWriter json, ArrayBufferWriter<byte> buffer, Stream output, Counts counts, string database, Stopwatch clock, CancellationToken cancellationToken)
    {
        DocumentChangeReader changes = reader.ChangesAfter(fromEtag);
        while (changes.MoveNext())
        {
            if (changes.Kind == DocumentChangeKind.Put)
            {
                WriteDocument(json, buffer, changes.Document);
                counts.Documents++;
            }
            else
            {
                Tombstone tombstone = changes.Tombstone;
                json.WriteStartObject();
                json.WriteNumber(BackupLines.Etag, tombstone.Etag);
                json.WriteStartObject(BackupLines.Delete);
                json.WriteString("Id"u8, tombstone.Id);
                json.WriteString("Collection"u8, tombstone.Collection);
                json.WriteEndObject();
                json.WriteEndObject();
                EndLine(json, buffer);
                counts.Deletes++;
            }

            await FlushIfFullAsync(buffer, output, counts, database, clock, cancellationToken);
        }
    }

    private static void WriteDocument(Utf8JsonWriter json, ArrayBufferWriter<byte> buffer, Document document)
    {
        json.WriteStartObject();
        json.WriteNumber(BackupLines.Etag, document.Etag);
        json.WriteString(BackupLines.Id, document.Id);
        json.WritePropertyName(BackupLines.Document);
        json.WriteRawValue(document.Json, skipInputValidation: true);
        json.WriteEndObject();
        EndLine(json, buffer);
    }

    private static void EndLine(Utf8JsonWriter json, ArrayBufferWriter<byte> buffer)
    {
        json.Flush();
        json.Reset();
        buffer.Write("\n"u8);
    }

    private async ValueTask FlushIfFullAsync(ArrayBufferWriter<byte> buffer, Stream output, Counts counts, string database, Stopwatch clock, CancellationToken cancellationToken)
    {
        if (buffer.WrittenCount < FlushThresholdBytes)
            return;
        await output.WriteAsync(buffer.WrittenMemory, cancellationToken);
        buffer.Clear();
        if (clock.Elapsed - counts.LastReport >= s_progressInterval)
        {
            counts.LastReport = clock.Elapsed;
            BackupLog.Progress(_logger, database, counts.Documents, counts.Deletes, clock.Elapsed.TotalMilliseconds);
        }
    }

    private sealed class Counts
    {
        public long Documents { get; set; }

        public long Deletes { get; set; }

        public TimeSpan LastReport { get; set; }
    }
}
