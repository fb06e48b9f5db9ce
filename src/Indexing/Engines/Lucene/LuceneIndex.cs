using System.Globalization;
using Folio.Indexing.Search;
using Folio.Storage;
using Lucene.Net.Analysis.Core;
using Lucene.Net.Index;
using Lucene.Net.Search;
using IndexSearcher = Lucene.Net.Search.IndexSearcher;
using Lucene.Net.Search.Similarities;
using Lucene.Net.Store;
using Lucene.Net.Util;
using LuceneDirectory = Lucene.Net.Store.Directory;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// An index kept by Lucene.Net (<see cref="LuceneSearchEngine"/>): one <see cref="IndexWriter"/> on an
/// <see cref="NIOFSDirectory"/> in the index's folder (a <see cref="RAMDirectory"/> for an index in memory). Each batch
/// ends with a Lucene commit whose user data holds the etag the batch processed up to, so after a crash the index
/// resumes from its last commit, and searchers come from a <see cref="SearcherManager"/> refreshed after each commit,
/// so none sees half a batch. Segments merge only with their neighbours (<see cref="LogByteSizeMergePolicy"/>), so
/// Lucene's document numbers keep the order entries were added in, the order Folio's engine gives its entry ids.
/// </summary>
public sealed class LuceneIndex : IEngineIndex
{
    /// <summary>The format this build writes, in the commit user data; an index of another is refused like Folio's engine refuses one.</summary>
    public const int FormatVersion = 1;

    private const string FormatKey = "folio.lucene-format";

    private readonly LuceneDirectory _directory;
    private readonly SearcherManager _searchers;
    private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly object _gate = new();
    private IndexWriter _writer;
    private long _processedEtag;
    private int _openSearchers;
    private bool _batchOpen;
    private bool _disposed;

    static LuceneIndex()
    {
        // A TermsInQuery or a full-text search of many words becomes one clause per value; Folio's engine has no limit.
        BooleanQuery.MaxClauseCount = int.MaxValue;
    }

    private LuceneIndex(LuceneDirectory directory, IndexSchema schema)
    {
        _directory = directory;
        Schema = schema;
        Builder = new LuceneDocumentBuilder(schema);
        _writer = OpenWriter();
        var data = _writer.CommitData;
        if (data.TryGetValue(FormatKey, out var format) && format != FormatVersion.ToString(CultureInfo.InvariantCulture))
        {
            _writer.Rollback();
            throw new UnsupportedFormatException($"This Lucene index was written in format version {format}; this build reads {FormatVersion}. Rebuild the index.");
        }
        if (!DirectoryReader.IndexExists(directory))
            Commit(0);
        _processedEtag = data.TryGetValue(LuceneFields.ProcessedEtag, out var etag) ? long.Parse(etag, CultureInfo.InvariantCulture) : 0;
        // Searchers read through the watch on the terms dictionaries; the writer needs none.
        _searchers = new SearcherManager(new WatchedDirectory(directory), new Bm25SearcherFactory());
    }

    /// <inheritdoc/>
    public IndexSchema Schema { get; }

    /// <summary>Builds the Lucene documents of entries.</summary>
    internal LuceneDocumentBuilder Builder { get; }

    /// <summary>The writer of the batch under way.</summary>
    internal IndexWriter Writer => _writer;

    /// <inheritdoc/>
    public Task Closed => _closed.Task;

    /// <inheritdoc/>
    public long SizeOnDisk
    {
        get
        {
            if (_directory is RAMDirectory memory)
                return memory.GetSizeInBytes();
            long size = 0;
            foreach (var file in _directory.ListAll())
            {
                try
                {
                    size += _directory.FileLength(file);
                }
                catch (IOException)
                {
                    // A merge removed the file while it was being measured.
                }
            }
            return size;
        }
    }

    /// <summary>Opens (creating when there is none) the index stored under <paramref name="options"/>' path, or in memory.</summary>
    /// <exception cref="UnsupportedFormatException">The index was written in a format this build does not read.</exception>
    public static LuceneIndex Open(StorageOptions options, IndexSchema schema)
    {
        ArgumentNullException.ThrowIfNull(options);
        LuceneDirectory directory;
        if (options.Path is { } path)
        {
            System.IO.Directory.CreateDirectory(path);
            directory = new NIOFSDirectory(path);
        }
        else
        {
            directory = new RAMDirectory();
        }
        try
        {
            return new LuceneIndex(directory, schema);
        }
        catch
        {
            directory.Dispose();
            throw;
        }
    }

    /// <inheritdoc/>
    public long ReadProcessedEtag() => Volatile.Read(ref _processedEtag);

    /// <inheritdoc/>
    public IEngineBatch BeginBatch()
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_batchOpen)
                throw new InvalidOperationException("A batch is already under way on this index; one batch at a time.");
            _batchOpen = true;
        }
        return new LuceneBatch(this, AcquireSearcher());
    }

    /// <inheritdoc/>
    public IEngineSearcher OpenSearcher() => new LuceneSearcher(this, AcquireSearcher());

    /// <summary>A searcher on the last commit, counted until <see cref="Release"/>.</summary>
    internal IndexSearcher AcquireSearcher()
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _openSearchers++;
            return _searchers.Acquire();
        }
    }

    /// <summary>Gives back a searcher from <see cref="AcquireSearcher"/>; the last one after the index closed closes its files.</summary>
    internal void Release(IndexSearcher searcher)
    {
        bool close;
        lock (_gate)
        {
            _searchers.Release(searcher);
            close = --_openSearchers == 0 && _disposed;
        }
        if (close)
            CloseDirectory();
    }

    /// <summary>Commits the writer's changes with <paramref name="processedEtag"/> and shows them to new searchers.</summary>
    internal void Commit(long processedEtag)
    {
        _writer.SetCommitData(new Dictionary<string, string>
        {
            [FormatKey] = FormatVersion.ToString(CultureInfo.InvariantCulture),
            [LuceneFields.ProcessedEtag] = processedEtag.ToString(CultureInfo.InvariantCulture),
        });
        _writer.Commit();
        Volatile.Write(ref _processedEtag, processedEtag);
        // The manager is made after the first (empty) commit of a new index.
        _searchers?.MaybeRefreshBlocking();
    }

    /// <summary>Ends a batch: one not committed is thrown away by rolling the writer back to the last commit (which closes it) and opening a new one.</summary>
    internal void EndBatch(bool committed)
    {
        lock (_gate)
        {
            _batchOpen = false;
            if (committed || _disposed)
                return;
            _writer.Rollback();
            _writer = OpenWriter();
        }
    }

    /// <summary>Closes the writer (throwing away anything uncommitted: every batch commits, or was discarded); the files close once the last searcher ends.</summary>
    public void Dispose()
    {
        bool close;
        lock (_gate)
        {
            if (_disposed)
                return;
            _disposed = true;
            _writer.Rollback();
            _searchers.Dispose();
            close = _openSearchers == 0;
        }
        if (close)
            CloseDirectory();
    }

    private void CloseDirectory()
    {
        _directory.Dispose();
        _closed.TrySetResult();
    }

    private IndexWriter OpenWriter() => new(_directory, new IndexWriterConfig(LuceneVersion.LUCENE_48, new KeywordAnalyzer())
    {
        OpenMode = OpenMode.CREATE_OR_APPEND,
        MergePolicy = new LogByteSizeMergePolicy(),
        Similarity = new BM25Similarity(),
    });

    /// <summary>Searchers that score by BM25, as Folio's engine does.</summary>
    private sealed class Bm25SearcherFactory : SearcherFactory
    {
        public override IndexSearcher NewSearcher(IndexReader reader) => new(reader) { Similarity = new BM25Similarity() };
    }
}
