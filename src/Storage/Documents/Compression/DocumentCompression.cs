using System.Buffers;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Text;
using Folio.Storage.Transactions;
using Folio.Storage.Platform.Zstd;

namespace Folio.Storage.Documents.Compression;

/// <summary>
/// A document store's body compression: the dictionaries (every stored version, loaded when first needed),
/// each collection's writing state, and the trainings that run in the background once a collection has
/// enough samples or its dictionary stopped fitting.
/// </summary>
public sealed class DocumentCompression : IDisposable
{
    private readonly DocumentStore _store;
    private readonly ConcurrentDictionary<int, CompressionDictionary> _dictionaries = new();
    private readonly Dictionary<string, CollectionCompression> _collections = new(StringComparer.Ordinal);
    private readonly object _trainingsLock = new();
    private readonly List<Task> _trainings = [];
    private byte[] _compressedScratch = [];
    private volatile DocumentCompressionOptions _options;
    private volatile bool _disposed;

    /// <summary>The share of the current dictionary's output a replacement must stay under (it must save 2%).</summary>
    private const double ReplacementMustSave = 0.98;

    internal DocumentCompression(DocumentStore store, DocumentCompressionOptions options)
    {
        _store = store;
        _options = options;
        _dictionaries[0] = new CompressionDictionary(0, string.Empty, [], options.Level);
    }

    /// <summary>The Zstd implementation this process compresses and decompresses bodies with (the system's libzstd or ZstdSharp).</summary>
    public static string Implementation => ZstdLibrary.Default.Description;

    /// <summary>The settings new bodies are written with.</summary>
    public DocumentCompressionOptions Options => _options;

    /// <summary>
    /// Changes which collections new bodies are compressed for, from the next write on. The level, training and
    /// retraining settings stay the store's: dictionaries already trained keep working as they are. Bodies stored
    /// either way stay readable.
    /// </summary>
    /// <param name="enabled">Whether compression is on.</param>
    /// <param name="compressed">Only these collections are compressed; null for every collection not left out.</param>
    /// <param name="uncompressed">Collections left out.</param>
    public void Choose(bool enabled, IReadOnlySet<string>? compressed, IReadOnlySet<string> uncompressed)
    {
        ArgumentNullException.ThrowIfNull(uncompressed);
        _options = _options with { Enabled = enabled, CompressedCollections = compressed, UncompressedCollections = uncompressed };
    }

    /// <summary>The dictionary version new bodies of <paramref name="collection"/> are compressed with (0: none yet).</summary>
    public int CurrentVersion(string collection)
    {
        lock (_collections)
            return _collections.TryGetValue(collection.ToLowerInvariant(), out var state) ? state.Current.Id : 0;
    }

    /// <summary>Completes once the trainings running now have stored their dictionaries (or given up).</summary>
    public Task WhenTrainingsDoneAsync()
    {
        lock (_trainingsLock)
            return Task.WhenAll(_trainings.ToArray());
    }

    /// <summary>Stops starting trainings and waits for the running ones; writes still compress (the merger may hold some).</summary>
    internal void StopTrainings()
    {
        if (_disposed)
            return;
        _disposed = true;
        try
        {
            WhenTrainingsDoneAsync().Wait(TimeSpan.FromSeconds(60));
        }
        catch (AggregateException)
        {
            // A training that failed stored nothing; closing goes on.
        }
    }

    /// <summary>Stops the trainings and frees the compression contexts: call once no write or read can come (the environment is closed).</summary>
    public void Dispose()
    {
        StopTrainings();
        foreach (var (_, dictionary) in _dictionaries)
            dictionary.Dispose();
    }

    /// <summary>Reads each collection's current dictionary version, as the store opens.</summary>
    internal void Load(WriteTransaction transaction)
    {
        var meta = transaction.OpenTree(DocumentStore.MetaTree)!;
        var dictionaries = transaction.OpenTree(DictionaryRecord.Tree)!;
        var cursor = meta.CreateCursor();
        for (var more = cursor.Seek(DictionaryRecord.CurrentPrefix); more && cursor.Key.StartsWith(DictionaryRecord.CurrentPrefix); more = cursor.MoveNext())
        {
            var collectionKey = Encoding.UTF8.GetString(cursor.Key[DictionaryRecord.CurrentPrefix.Length..]);
            var version = BinaryPrimitives.ReadInt32LittleEndian(cursor.Value);
            var dictionary = Find(version, dictionaries)
                ?? throw new CorruptionException($"Collection '{collectionKey}' compresses with dictionary {version}, which the database does not hold or holds damaged.");
            _collections[collectionKey] = new CollectionCompression(collectionKey, dictionary, Options);
        }
    }

    /// <summary>The writing state of a collection whose bodies are compressed, or null when they are stored as they are.</summary>
    internal CollectionCompression? ForWriting(string collectionKey, string collection)
    {
        if (!Options.Compresses(collection))
            return null;
        lock (_collections)
        {
            if (!_collections.TryGetValue(collectionKey, out var state))
            {
                state = new CollectionCompression(collectionKey, _dictionaries[0], Options);
                _collections.Add(collectionKey, state);
            }
            return state;
        }
    }

    /// <summary>The dictionary of <paramref name="version"/> as the snapshot holds it, or null when it is missing or damaged.</summary>
    internal CompressionDictionary? Find(int version, Trees.Tree? dictionaries)
    {
        if (_dictionaries.TryGetValue(version, out var known))
            return known;
        if (dictionaries is null || !dictionaries.TryGet(DictionaryRecord.VersionKey(version), out var value) || DictionaryRecord.Decode(value) is not { } decoded)
            return null;
        var dictionary = new CompressionDictionary(version, decoded.CollectionKey, decoded.Dictionary, Options.Level);
        if (_dictionaries.TryAdd(version, dictionary))
            return dictionary;
        dictionary.Dispose();
        return _dictionaries[version];
    }

    /// <summary>The write thread's buffer for a compressed body.</summary>
    internal Span<byte> CompressedScratch(int length) => Grow(ref _compressedScratch, length).AsSpan(0, length);

    /// <summary>Trains a dictionary on <paramref name="samples"/> in the background and stores it through the transaction merger.</summary>
    internal void StartTraining(CollectionCompression state, List<byte[]> samples)
    {
        if (_disposed)
        {
            state.TrainingFailed();
            return;
        }
        lock (_trainingsLock)
        {
            _trainings.RemoveAll(t => t.IsCompleted);
            _trainings.Add(Task.Run(() => TrainAsync(state, samples)));
        }
    }

    private async Task TrainAsync(CollectionCompression state, List<byte[]> samples)
    {
        try
        {
            // A first dictionary only has to beat none; a later one replaces a dictionary that works, so it is judged
            // on bodies it was not trained on and must save a few percent, or every retraining would look like a gain.
            var current = state.Current;
            var (training, judged) = current.Id == 0 ? (samples, samples) : HoldOut(samples);
            byte[] trained;
            try
            {
                trained = DictionaryTrainer.Train(training, Options.DictionaryBytes, Options.Level);
            }
            catch (ZstdFailureException)
            {
                state.TrainingFailed();
                return;
            }
            if (_disposed || trained.Length < 8 || !Helps(trained, current, judged, current.Id == 0 ? 1.0 : ReplacementMustSave))
            {
                state.TrainingFailed();
                return;
            }
            var operation = new StoreDictionaryOperation(state.CollectionKey, trained);
            await _store.Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
            var dictionary = new CompressionDictionary(operation.Version, state.CollectionKey, trained, Options.Level);
            if (!_dictionaries.TryAdd(operation.Version, dictionary))
            {
                dictionary.Dispose();
                dictionary = _dictionaries[operation.Version];
            }
            state.Adopt(dictionary);
        }
        catch (Exception e) when (e is ObjectDisposedException or StorageException or InvalidOperationException)
        {
            // The store closed or stopped accepting writes meanwhile: no dictionary was stored, so nothing refers to one.
            state.TrainingFailed();
        }
        catch (ZstdFailureException)
        {
            // Zstd refused the trained bytes (loading or trying them): nothing was stored. Without this the
            // collection would stay "training" and never sample again while the store is open.
            state.TrainingFailed();
        }
    }

    /// <summary>Splits samples into the nine tenths a replacement dictionary is trained on and the tenth it is judged on.</summary>
    private static (List<byte[]> Training, List<byte[]> Judged) HoldOut(List<byte[]> samples)
    {
        var training = new List<byte[]>(samples.Count);
        var judged = new List<byte[]>(samples.Count / 10 + 1);
        for (var i = 0; i < samples.Count; i++)
            (i % 10 == 9 ? judged : training).Add(samples[i]);
        return (training, judged);
    }

    /// <summary>
    /// Whether the new dictionary compresses (a sample of) <paramref name="samples"/> to less than
    /// <paramref name="ratio"/> of what the current one makes of them.
    /// </summary>
    private bool Helps(byte[] trained, CompressionDictionary current, List<byte[]> samples, double ratio)
    {
        using var candidate = new CompressionDictionary(-1, string.Empty, trained, Options.Level);
        using var baseline = new CompressionDictionary(-1, string.Empty, current.Id == 0 ? [] : CopyOf(current), Options.Level);
        long withCandidate = 0, withCurrent = 0;
        var buffer = ArrayPool<byte>.Shared.Rent(64 * 1024);
        try
        {
            var step = Math.Max(1, samples.Count / 200);
            for (var i = 0; i < samples.Count; i += step)
            {
                var sample = samples[i];
                var limit = Math.Min(buffer.Length, sample.Length + 64);
                withCandidate += candidate.TryCompress(sample, buffer, limit, out var a, out _) ? a : sample.Length;
                withCurrent += baseline.TryCompress(sample, buffer, limit, out var b, out _) ? b : sample.Length;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
        return withCandidate < withCurrent * ratio;
    }

    private static byte[] CopyOf(CompressionDictionary dictionary) => dictionary.Bytes.ToArray();

    private static byte[] Grow(ref byte[] buffer, int length)
    {
        if (buffer.Length < length)
            buffer = new byte[(int)Math.Max(length, Math.Min(int.MaxValue / 2, buffer.Length * 2L))];
        return buffer;
    }
}
