using System.Buffers.Binary;
using System.Diagnostics;
using System.Text;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Merging;
using Folio.Storage.Transactions;

namespace Folio.Storage.Documents;

/// <summary>
/// JSON documents on a storage environment: by case-insensitive id, by etag, by collection and etag,
/// with tombstones for deletes and counts per collection. Every write goes through the environment's
/// transaction merger; reads run on snapshots through <see cref="OpenReader"/>.
/// </summary>
public sealed partial class DocumentStore : IDisposable
{
    internal const string DocsTree = "docs";
    internal const string CollectionDocsTree = "collection-etag-blocks";
    internal const string CollectionsTree = "collections";
    internal const string TombstonesTree = "tombstones";
    internal const string CollectionTombstonesTree = "collection-tombstones";
    internal const string MetaTree = "meta";

    /// <summary>
    /// The documents format this build writes and the newest it reads: 1 stored every body as it is, 2 may
    /// compress bodies and keeps dictionaries, 3 may leave out of a record the id its key holds and of a compressed
    /// frame the store's metadata (which a build reading 2 would take for an empty id), 4 keeps one etag index keyed by
    /// collection number where 1-3 kept one of all documents and one per collection by name (a build reading 3 would
    /// find neither), 5 keeps that index in blocks of documents (<see cref="EtagBlock"/>) where 4 kept an entry a
    /// document, 6 lays records out with varints and the collection's number instead of its name (<see cref="Document"/>)
    /// and keeps each number's name with it, 7 may store a compressed body's frame bare (<see cref="Compression.BareFrame"/>)
    /// and a batch's time once for its records (<see cref="WriteTimes"/>), records a build reading 6 could not read (it
    /// refuses the store at open); a store of format 6 needs no move to be one of 7. Stores without the marker are format 1.
    /// </summary>
    internal const int DocumentsFormat = 7;

    private static ReadOnlySpan<byte> FormatKey => "documents-format"u8;

    private readonly bool _ownsEnvironment;
    private readonly byte[] _databaseId;
    private readonly CommitChangeCollector _collector;
    private readonly ContextPool<BodyBuffer> _arenas = new(() => new BodyBuffer(reusable: false));
    private readonly ContextPool<BodyBuffer> _cursorBuffers = new(() => new BodyBuffer(reusable: true));
    private CommittedChanges _lastChanges;

    private DocumentStore(StorageEnvironment environment, bool ownsEnvironment, DocumentCompressionOptions compression, Action<FormatMoveProgress>? formatMoveProgress)
    {
        var opened = Stopwatch.StartNew();
        Environment = environment;
        _ownsEnvironment = ownsEnvironment;
        _collector = new CommitChangeCollector(this);
        Compression = new DocumentCompression(this, compression);
        using var tx = environment.BeginWrite();
        tx.CreateTree(DocsTree);
        tx.CreateTree(CollectionDocsTree);
        tx.CreateTree(CollectionNumbers.Tree);
        tx.CreateTree(CollectionsTree);
        tx.CreateTree(TombstonesTree);
        tx.CreateMultiValueTree(CollectionTombstonesTree);
        tx.CreateTree(DictionaryRecord.Tree);
        tx.CreateTree(CompareExchangeEntries.Tree);
        tx.CreateTree(WriteTimes.TreeName);
        var meta = tx.CreateTree(MetaTree);
        var format = meta.TryGet(FormatKey, out var storedFormat) ? BinaryPrimitives.ReadInt32LittleEndian(storedFormat) : 1;
        if (format > DocumentsFormat)
            throw new UnsupportedFormatException($"The database in {environment.Description} holds documents in format {format}, written by a newer Folio; this build reads formats up to {DocumentsFormat}. Open it with that newer Folio.");
        if (format < 5)
            MoveToCollectionEtagBlocks(tx, environment.Description);
        if (format < RecordMoveFormat)
            StartRecordMove(tx);
        if (format < DocumentsFormat)
            BinaryPrimitives.WriteInt32LittleEndian(meta.Reserve(FormatKey, 4), DocumentsFormat);
        CollectionNames.Load(tx.OpenTree(CollectionNumbers.Tree)!);
        WriteTimes.Load(tx.OpenTree(WriteTimes.TreeName)!, meta.TryGet("last-etag"u8, out var lastEtag) ? BinaryPrimitives.ReadInt64LittleEndian(lastEtag) : 0);
        Compression.Load(tx);
        if (meta.TryGet("database-id"u8, out var stored))
        {
            _databaseId = stored.ToArray();
        }
        else
        {
            _databaseId = Encoding.ASCII.GetBytes(Convert.ToBase64String(Guid.NewGuid().ToByteArray()).TrimEnd('=').Replace('+', '-').Replace('/', '_'));
            meta.Put("database-id"u8, _databaseId);
        }
        tx.Commit();
        MoveRecords(format, opened, formatMoveProgress);
        DatabaseId = Encoding.ASCII.GetString(_databaseId);
        using var reader = OpenReader();
        _lastChanges = CommittedChanges.Opened(reader.LastEtag);
    }

    /// <summary>The etag of the last committed write (0 when nothing was written yet).</summary>
    public long LastEtag => LastChanges.LastEtag;

    /// <summary>
    /// The last commit that changed documents since the store opened (before any, one that changed nothing
    /// up to the last etag): what to wait on, through <see cref="CommittedChanges.Next"/>, to learn of every
    /// later commit in order.
    /// </summary>
    public CommittedChanges LastChanges => Volatile.Read(ref _lastChanges);

    /// <summary>
    /// Completes with the last commit once a write committed after <paramref name="seenEtag"/> (at once if one
    /// already has): how indexers and subscriptions wait for work without polling and without a thread each.
    /// </summary>
    public Task<CommittedChanges> WaitForChangeAsync(long seenEtag, CancellationToken cancellationToken = default)
    {
        var last = LastChanges;
        if (last.LastEtag > seenEtag)
            return Task.FromResult(last);
        return cancellationToken.CanBeCanceled ? last.Next.WaitAsync(cancellationToken) : last.Next;
    }

    /// <summary>The collector of the changes <paramref name="transaction"/> makes, published when it commits.</summary>
    internal CommitChangeCollector ChangesOf(WriteTransaction transaction) => _collector.For(transaction);

    /// <summary>Makes <paramref name="changes"/> the last commit and wakes everyone waiting for it; under the write lock, so in commit order.</summary>
    internal void Publish(CommittedChanges changes)
    {
        var previous = _lastChanges;
        Volatile.Write(ref _lastChanges, changes);
        previous.Link(changes);
    }

    /// <summary>The environment the documents live in.</summary>
    public StorageEnvironment Environment { get; }

    /// <summary>Each collection number's name, which records are read with.</summary>
    internal CollectionNames CollectionNames { get; } = new();

    /// <summary>The times batches share, in memory for every read (<see cref="Documents.WriteTimes"/>).</summary>
    internal WriteTimes WriteTimes { get; } = new();

    /// <summary>This database's id: the second half of every change vector it makes.</summary>
    public string DatabaseId { get; }

    internal ReadOnlySpan<byte> DatabaseIdBytes => _databaseId;

    /// <summary>The buffers of the collection etag index's writes, which run one transaction at a time.</summary>
    internal CollectionEtagIndex EtagIndex { get; } = new();

    /// <summary>How this store compresses document bodies.</summary>
    public DocumentCompression Compression { get; }

    /// <summary>
    /// Opens the environment described by <paramref name="options"/> and the document store in it; bodies are
    /// compressed as <paramref name="compression"/> says (by default, on). A store written by an older build is moved to
    /// the current documents format first, <paramref name="formatMoveProgress"/> told how far that has got.
    /// </summary>
    public static DocumentStore Open(StorageOptions options, DocumentCompressionOptions? compression = null, Action<FormatMoveProgress>? formatMoveProgress = null)
    {
        var environment = StorageEnvironment.Open(options);
        try
        {
            return new DocumentStore(environment, ownsEnvironment: true, compression ?? new DocumentCompressionOptions(), formatMoveProgress);
        }
        catch
        {
            environment.Dispose();
            throw;
        }
    }

    /// <summary>A document store in an environment the caller keeps owning.</summary>
    public static DocumentStore On(StorageEnvironment environment, DocumentCompressionOptions? compression = null) =>
        new(environment, ownsEnvironment: false, compression ?? new DocumentCompressionOptions(), null);

    internal BodyBuffer RentBodyBuffer(bool reusable) => (reusable ? _cursorBuffers : _arenas).Rent();

    internal void ReturnBodyBuffer(BodyBuffer buffer)
    {
        buffer.Dispose();
        (buffer.Reusable ? _cursorBuffers : _arenas).Return(buffer);
    }

    /// <summary>A reader over the last committed state; dispose it to end its snapshot.</summary>
    public DocumentReader OpenReader() => new(this, Environment.BeginRead());

    /// <summary>Stores a document; completes once it is durable.</summary>
    public async Task<WriteResult> PutAsync(string id, PreparedDocument document, string? expectedChangeVector = null)
    {
        var operation = new BatchOperation(this, [new DocumentCommand(DocumentCommandType.Put, id, document, expectedChangeVector)]);
        await Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
        return operation.Results[0]!;
    }

    /// <summary>Deletes a document; the result says whether there was one. Completes once durable.</summary>
    public async Task<WriteResult?> DeleteAsync(string id, string? expectedChangeVector = null)
    {
        var operation = new BatchOperation(this, [new DocumentCommand(DocumentCommandType.Delete, id, null, expectedChangeVector)]);
        await Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
        return operation.Results[0];
    }

    /// <summary>Runs the commands in one transaction, all or nothing; results come in command order (null for a delete of a missing document).</summary>
    public async Task<IReadOnlyList<WriteResult?>> BatchAsync(IReadOnlyList<DocumentCommand> commands)
    {
        var operation = new BatchOperation(this, commands);
        await Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
        return operation.Results;
    }

    /// <summary>
    /// Waits for running dictionary trainings, disposes the environment when the store opened it (its merger
    /// finishes the writes queued, which still compress), then frees the compression contexts.
    /// </summary>
    public void Dispose()
    {
        Compression.StopTrainings();
        if (_ownsEnvironment)
            Environment.Dispose();
        Compression.Dispose();
    }

    /// <summary>
    /// A batch as one merged operation. It may run more than once (the merger reruns a transaction
    /// without a failed neighbour), so each run recomputes its results from the transaction alone.
    /// </summary>
    private sealed class BatchOperation(DocumentStore store, IReadOnlyList<DocumentCommand> commands) : MergedOperation
    {
        public WriteResult?[] Results { get; private set; } = [];

        public override long EstimatedBytes
        {
            get
            {
                long bytes = 0;
                foreach (var command in commands)
                    bytes += (command.Document?.Length ?? 0) + 256;
                return bytes;
            }
        }

        public override void Execute(WriteTransaction transaction)
        {
            var writer = new DocumentWriter(store, transaction, DocumentWriter.Puts(commands));
            var results = new WriteResult?[commands.Count];
            for (var i = 0; i < commands.Count; i++)
            {
                var command = commands[i];
                results[i] = command.Type == DocumentCommandType.Put
                    ? writer.Put(command.Id, command.Document ?? throw new DocumentValidationException($"Command {i} (PUT) has no document."), command.ExpectedChangeVector)
                    : writer.Delete(command.Id, command.ExpectedChangeVector);
            }
            writer.Complete();
            Results = results;
        }
    }
}
