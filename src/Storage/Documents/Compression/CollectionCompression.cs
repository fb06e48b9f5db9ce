namespace Folio.Storage.Documents.Compression;

/// <summary>
/// One collection's compression as the writer sees it: the dictionary new bodies use, the samples gathered
/// for the next one, and the ratio of recent bodies that tells when the dictionary no longer fits. Touched by
/// the write transaction's thread, except <see cref="Current"/> and the training flag, which a finished
/// training sets.
/// </summary>
internal sealed class CollectionCompression(string collectionKey, CompressionDictionary current, DocumentCompressionOptions options)
{
    /// <summary>Bodies larger than this are not sampled: a dictionary helps small bodies, large ones compress well alone.</summary>
    private const int MaxSampleBytes = 16 * 1024;

    /// <summary>Samples stop at this many bytes even when fewer than the wanted count were seen.</summary>
    private const long MaxSamplesTotalBytes = 8L << 20;

    /// <summary>
    /// The growth sample stops taking bodies at this many bytes: unlike the first samples it is held for as long as a
    /// span lasts, in every collection with a dictionary (2,000 Debian package stanzas take 1.8 MB).
    /// </summary>
    private const long MaxGrowthSampleBytes = 2L << 20;

    /// <summary>Trainings in a row that may fail before sampling stops until the bodies' ratio worsens again.</summary>
    private const int MaxFailedTrainings = 3;

    private CompressionDictionary _current = current;
    private List<byte[]>? _samples = current.Id == 0 ? [] : null;
    private long _samplesBytes;
    private volatile bool _training;
    private int _wantedSamples = options.TrainingSamples;
    private long _windowRaw;
    private long _windowStored;
    private int _windowDocuments;
    private double _baseline = double.NaN;
    private int _failedTrainings;
    private long _growthSpan;
    private long _sinceAdopted;
    private List<byte[]>? _reservoir;
    private long _reservoirBytes;
    private bool _trainingForGrowth;
    private readonly Random _random = new();

    /// <summary>The lower-cased collection name.</summary>
    public string CollectionKey { get; } = collectionKey;

    /// <summary>The dictionary new bodies are compressed with.</summary>
    public CompressionDictionary Current => Volatile.Read(ref _current);

    /// <summary>Whether a training is running for this collection.</summary>
    public bool Training => _training;

    /// <summary>
    /// Keeps a copy of <paramref name="json"/> when samples are being gathered, or now and then for the growth
    /// sample (<see cref="DocumentCompressionOptions.RetrainAfterGrowth"/>); returns the samples once there are
    /// enough to train on (the caller starts the training), else null.
    /// </summary>
    public List<byte[]>? Sample(ReadOnlySpan<byte> json)
    {
        if (_training || json.Length > MaxSampleBytes)
            return null;
        if (_samples is null)
            return _current.Id == 0 || options.RetrainAfterGrowth <= 1 ? null : SampleForGrowth(json);
        _samples.Add(json.ToArray());
        _samplesBytes += json.Length;
        if (_samples.Count < _wantedSamples && _samplesBytes < MaxSamplesTotalBytes)
            return null;
        var ready = _samples;
        _samples = null;
        _samplesBytes = 0;
        _training = true;
        return ready;
    }

    /// <summary>
    /// Reservoir sampling over the bodies written since the current dictionary was adopted, so the candidate trained
    /// when the span ends has seen its middle and end as much as its start; copies a body ever more rarely as the span goes on.
    /// </summary>
    private List<byte[]>? SampleForGrowth(ReadOnlySpan<byte> json)
    {
        if (_growthSpan == 0)
            _growthSpan = (long)options.TrainingSamples * options.RetrainAfterGrowth;
        var seen = ++_sinceAdopted;
        var reservoir = _reservoir ??= new List<byte[]>(options.TrainingSamples);
        if (reservoir.Count < options.TrainingSamples)
        {
            if (_reservoirBytes + json.Length <= MaxGrowthSampleBytes)
            {
                reservoir.Add(json.ToArray());
                _reservoirBytes += json.Length;
            }
        }
        else if (_random.NextInt64(seen) is var slot && slot < reservoir.Count)
        {
            var replaced = reservoir[(int)slot];
            if (_reservoirBytes - replaced.Length + json.Length <= MaxGrowthSampleBytes)
            {
                reservoir[(int)slot] = json.ToArray();
                _reservoirBytes += json.Length - replaced.Length;
            }
        }
        if (seen < _growthSpan)
            return null;
        _reservoir = null;
        _reservoirBytes = 0;
        _sinceAdopted = 0;
        _growthSpan = Math.Min(long.MaxValue / 2, _growthSpan * options.RetrainAfterGrowth);
        _training = true;
        _trainingForGrowth = true;
        return reservoir;
    }

    /// <summary>Counts a body into the ratio window; a window worse than the baseline starts gathering samples for a new dictionary.</summary>
    public void Observe(int rawBytes, int storedBytes)
    {
        _windowRaw += rawBytes;
        _windowStored += storedBytes;
        if (++_windowDocuments < options.RatioWindowDocuments)
            return;
        var ratio = _windowStored / (double)_windowRaw;
        _windowRaw = 0;
        _windowStored = 0;
        _windowDocuments = 0;
        if (_training || _samples is not null)
            return;
        if (double.IsNaN(_baseline))
            _baseline = ratio;
        else if (ratio > _baseline * options.RetrainWhenWorseBy)
            _samples = [];
    }

    /// <summary>Makes a newly stored dictionary the one new bodies use and starts measuring it afresh.</summary>
    public void Adopt(CompressionDictionary dictionary)
    {
        Volatile.Write(ref _current, dictionary);
        _baseline = double.NaN;
        _sinceAdopted = 0;
        _reservoir = null;
        _reservoirBytes = 0;
        _trainingForGrowth = false;
        _wantedSamples = options.TrainingSamples;
        _failedTrainings = 0;
        _training = false;
    }

    /// <summary>
    /// A training that produced nothing usable: gather twice as many samples before trying again, a few times.
    /// Then stop: bodies no dictionary helps (random or already compressed data) would otherwise have every write
    /// copy its body for samples and a training run every few megabytes, for as long as the store is open.
    /// Sampling starts again when the ratio of new bodies worsens past the one measured from here. A training for
    /// growth that found nothing better just leaves the current dictionary in place until the next, longer span ends.
    /// </summary>
    public void TrainingFailed()
    {
        if (_trainingForGrowth)
        {
            _trainingForGrowth = false;
            _training = false;
            return;
        }
        if (++_failedTrainings < MaxFailedTrainings)
        {
            _wantedSamples = (int)Math.Min(int.MaxValue / 2, _wantedSamples * 2L);
            _samples = [];
        }
        else
        {
            _failedTrainings = 0;
            _wantedSamples = options.TrainingSamples;
            _samples = null;
            _baseline = double.NaN;
        }
        _training = false;
    }

    /// <summary>Whether bodies are being copied as samples for a training (for tests).</summary>
    internal bool Sampling => _samples is not null;
}
