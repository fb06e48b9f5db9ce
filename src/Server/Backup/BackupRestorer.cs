using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.IO.Compression;
using System.IO.Hashing;
using System.IO.Pipelines;
using Folio.Indexing.Definitions;
using Folio.Server.Databases;
using Folio.Storage.Documents;

namespace Folio.Server.Backup;

/// <summary>
/// Restores a backup set into a new database: every file is checked against the manifest (length and XxHash64) before
/// anything is created, then the files are applied in order through the store's batches, then the static indexes are
/// put (they build in the background) and the subscriptions recreated at their positions. A restore that fails part-way
/// deletes the database it created, so nothing half-restored stays.
/// </summary>
public sealed partial class BackupRestorer
{
    private const int BatchCommands = 1024;
    private const long BatchBytes = 8L * 1024 * 1024;
    private static readonly TimeSpan s_progressInterval = TimeSpan.FromSeconds(5);

    private readonly DatabaseRegistry _databases;
    private readonly int _maxJsonDepth;
    private readonly ILogger _logger;

    /// <summary>Creates a restorer.</summary>
    /// <param name="databases">Where the new database is created.</param>
    /// <param name="maxJsonDepth">Deepest nesting accepted in a document.</param>
    /// <param name="logger">Where progress goes.</param>
    public BackupRestorer(DatabaseRegistry databases, int maxJsonDepth, ILogger logger)
    {
        _databases = databases;
        _maxJsonDepth = maxJsonDepth;
        _logger = logger;
    }

    /// <summary>Restores the set in <paramref name="directory"/> into a new database named <paramref name="name"/>.</summary>
    /// <exception cref="BackupException">The directory holds no set, or a file is missing, truncated, damaged or not Folio's.</exception>
    public async Task<RestoreSummary> RestoreAsync(string directory, string name, CancellationToken cancellationToken)
    {
        DatabaseName.Validate(name);
        BackupManifest manifest = (Directory.Exists(directory) ? BackupManifest.TryRead(directory) : null)
            ?? throw new BackupException($"{directory} holds no {BackupManifest.FileName}, so it is not a Folio backup.");
        foreach (BackupFile file in manifest.Files)
            await VerifyAsync(directory, file, cancellationToken);
        Header header = await ReadHeaderAsync(Path.Combine(directory, manifest.Files[^1].Name), cancellationToken);

        var clock = Stopwatch.StartNew();
        Database database = await _databases.CreateAsync(name, cancellationToken);
        BackupLog.RestoreStarted(_logger, directory, database.Name, manifest.Files.Count);
        try
        {
            var progress = new Progress(database.Name, clock);
            foreach (BackupFile file in manifest.Files)
                await ApplyAsync(database.Store, Path.Combine(directory, file.Name), header.Subscriptions, progress, cancellationToken);

            if (header.Definitions.Count > 0)
                database.Indexes.Put(header.Definitions);
            foreach (SubscriptionPosition subscription in header.Subscriptions)
                database.Subscriptions.Restore(subscription.Name, subscription.Query, subscription.Restored.ToString(CultureInfo.InvariantCulture));

            long documents;
            using (DocumentReader reader = database.Store.OpenReader())
                documents = reader.CountOfDocuments;
            BackupLog.RestoreCompleted(_logger, database.Name, progress.Documents, progress.Deletes, header.Definitions.Count, header.Subscriptions.Count, clock.Elapsed.TotalMilliseconds);
            return new RestoreSummary(database.Name, manifest.Files.Count, documents, header.Definitions.Count, header.Subscriptions.Count, clock.Elapsed);
        }
        catch (Exception e)
        {
            BackupLog.RestoreFailed(_logger, e, directory, database.Name);
            await _databases.DeleteAsync(database.Name, CancellationToken.None);
            throw;
        }
    }

    private static async Task VerifyAsync(string directory, BackupFile file, CancellationToken cancellationToken)
    {
        string path = Path.Combine(directory, file.Name);
        if (!File.Exists(path))
            throw new BackupException($"{file.Name}, named by the manifest, is missing from {directory}.");
        long length = new FileInfo(path).Length;
        if (length != file.Bytes)
            throw new BackupException($"{file.Name} is {length} bytes; the manifest says {file.Bytes}, so it is truncated or damaged.");
        var hash = new XxHash64();
        byte[] buffer = ArrayPool<byte>.Shared.Rent(1 << 20);
        try
        {
            await using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.Asynchronous | FileOptions.SequentialScan);
            int read;
            while ((read = await stream.ReadAsync(buffer, cancellationToken)) > 0)
                hash.Append(buffer.AsSpan(0, read));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        string actual = Convert.ToHexStringLower(hash.GetCurrentHash());
        if (!string.Equals(actual, file.XxHash64, StringComparison.OrdinalIgnoreCase))
            throw new BackupException($"{file.Name} does not match its checksum (XxHash64 {actual}, the manifest says {file.XxHash64}), so it is damaged.");
    }

    /// <summary>The index definitions and subscriptions at the start of the set's last file: the newest of them.</summary>
    private async Task<Header> ReadHeaderAsync(string path, CancellationToken cancellationToken)
    {
        var header = new Header();
        await ReadLinesAsync(path, (line, number) => ReadHeaderLine(line, number, path, header), flush: null, cancellationToken);
        return header;
    }

    private async Task ApplyAsync(DocumentStore store, string path, List<SubscriptionPosition> subscriptions, Progress progress, CancellationToken cancellationToken)
    {
        var batch = new Batch();
        await ReadLinesAsync(
            path,
            (line, number) =>
            {
                ReadChangeLine(line, number, path, batch);
                return batch.Commands.Count >= BatchCommands || batch.Bytes >= BatchBytes ? LineAction.Flush : LineAction.Continue;
            },
            () => CommitAsync(store, batch, subscriptions, progress),
            cancellationToken);
        await CommitAsync(store, batch, subscriptions, progress);
    }

    private async ValueTask CommitAsync(DocumentStore store, Batch batch, List<SubscriptionPosition> subscriptions, Progress progress)
    {
        if (batch.Commands.Count == 0)
            return;
        IReadOnlyList<WriteResult?> results = await store.BatchAsync(batch.Commands);
        for (int i = 0; i < results.Count; i++)
        {
            if (results[i] is not { } result)
                continue;
            // Changes arrive in their original etag order, so a subscription's position moves to the new etag of the
            // last change it had acknowledged: nothing after it is skipped, nothing before it is delivered again.
            foreach (SubscriptionPosition subscription in subscriptions)
            {
                if (batch.OriginalEtags[i] <= subscription.Acknowledged)
                    subscription.Restored = result.Etag;
            }

            if (result.Deleted)
                progress.Deletes++;
            else
                progress.Documents++;
        }

        batch.Clear();
        progress.Report(_logger);
    }

    private sealed class Header
    {
        public List<IndexDefinition> Definitions { get; } = [];

        public List<SubscriptionPosition> Subscriptions { get; } = [];
    }

    private sealed class SubscriptionPosition(string name, string query, long acknowledged)
    {
        public string Name { get; } = name;

        public string Query { get; } = query;

        public long Acknowledged { get; } = acknowledged;

        public long Restored { get; set; }
    }

    private sealed class Batch
    {
        public List<DocumentCommand> Commands { get; } = new(BatchCommands);

        public List<long> OriginalEtags { get; } = new(BatchCommands);

        public long Bytes { get; set; }

        public void Clear()
        {
            Commands.Clear();
            OriginalEtags.Clear();
            Bytes = 0;
        }
    }

    private sealed class Progress(string database, Stopwatch clock)
    {
        private TimeSpan _lastReport;

        public long Documents { get; set; }

        public long Deletes { get; set; }

        public void Report(ILogger logger)
        {
            if (clock.Elapsed - _lastReport < s_progressInterval)
                return;
            _lastReport = clock.Elapsed;
            BackupLog.RestoreProgress(logger, database, Documents, Deletes, clock.Elapsed.TotalMilliseconds);
        }
    }
}
