namespace Folio.Storage.Documents.Compression;

/// <summary>
/// How a document store compresses the JSON bodies it writes. Reads never depend on these settings: a body
/// says how it was stored, so turning compression off leaves compressed bodies readable.
/// </summary>
public sealed record DocumentCompressionOptions
{
    /// <summary>Whether new bodies are compressed (Zstd, with a dictionary per collection once one is trained).</summary>
    public bool Enabled { get; init; } = true;

    /// <summary>Collections (case-insensitive) whose bodies are stored as they are even when compression is on.</summary>
    public IReadOnlySet<string> UncompressedCollections { get; init; } = new HashSet<string>(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// When set, only these collections (case-insensitive) are compressed, as a database that names the collections it
    /// compresses asks; null compresses every collection not in <see cref="UncompressedCollections"/>.
    /// </summary>
    public IReadOnlySet<string>? CompressedCollections { get; init; }

    /// <summary>
    /// The Zstd level. Bodies are compressed on the write transaction's thread; level 3 stores about 3% fewer bytes
    /// than level 1 with a trained dictionary for the same bulk-insert CPU, and in a run on a quiet machine PUT and GET
    /// were no slower (docs/benchmarks.md).
    /// </summary>
    public int Level { get; init; } = 3;

    /// <summary>
    /// The Zstd level a compaction recompresses bodies at. A compaction runs off the write path, so it can spend the
    /// time a slower level takes for smaller frames, which also read no slower: on the search benchmark's records,
    /// level 15 stores 8% fewer body bytes than level 3 (level 12: 6%) for about 6.6 times the compaction's time
    /// (level 12: 2.9 times; level 19 gains 0.2% more for 1.5 times level 15's; docs/benchmarks.md). When above
    /// <see cref="Level"/>, a compaction recompresses every body the write path compressed, once (the record remembers
    /// it was).
    /// </summary>
    public int CompactionLevel { get; init; } = 15;

    /// <summary>How many of a collection's bodies a dictionary is trained on.</summary>
    public int TrainingSamples { get; init; } = 2000;

    /// <summary>The size a trained dictionary is capped at.</summary>
    public int DictionaryBytes { get; init; } = 64 * 1024;

    /// <summary>
    /// How many bodies one measurement of a dictionary's ratio spans: the first window after training sets the
    /// baseline, and a later window whose ratio is worse than the baseline by <see cref="RetrainWhenWorseBy"/>
    /// starts a retraining on the bodies that follow.
    /// </summary>
    public int RatioWindowDocuments { get; init; } = 1000;

    /// <summary>The factor by which a window's stored ÷ raw ratio must exceed the baseline to retrain.</summary>
    public double RetrainWhenWorseBy { get; init; } = 1.25;

    /// <summary>
    /// A collection that grows this many times past the bodies its dictionary was trained on (<see cref="TrainingSamples"/>
    /// at first, then each span this many times longer) trains a candidate on a sample drawn evenly from the whole span,
    /// and adopts it when it compresses bodies it was not trained on smaller. The first bodies of a collection are
    /// often not like the rest (loaded in id or time order: Debian's package lists start with one letter of the
    /// alphabet), and compress worse with a dictionary trained on them alone (with zstd, 360 against 316 B a Debian stanza); with 4 instead of 8 that set
    /// ended 1 MB smaller (three dictionaries instead of two), and collections like their first bodies kept theirs.
    /// 0 or 1: never.
    /// </summary>
    public int RetrainAfterGrowth { get; init; } = 4;

    /// <summary>Whether new bodies of <paramref name="collection"/> are compressed.</summary>
    /// <param name="collection">The collection's name, in any casing.</param>
    /// <returns>True when compression is on and the collection is neither left out nor missing from the named ones.</returns>
    public bool Compresses(string collection) =>
        Enabled && (CompressedCollections is null || CompressedCollections.Contains(collection)) && !UncompressedCollections.Contains(collection);

    /// <summary>Compression off: what stores opened without options use for nothing but reading.</summary>
    public static DocumentCompressionOptions Disabled { get; } = new() { Enabled = false };
}
