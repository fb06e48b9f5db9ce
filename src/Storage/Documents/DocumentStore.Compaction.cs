using System.Buffers;
using Folio.Storage.Compaction;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>The leaf fill a compaction's copy reaches (measured 97.8–99.9%), a little under so the estimate errs low.</summary>
    private const double PackedLeafFill = 0.97;

    // A copy packs values of 4-16 KB (those in shared runs, and those on pages of their own) into runs one after
    // another, so only each run's end stays empty. Counted low, so that a compaction is not started for space it will
    // not find.
    private const double PackedHeapFill = 0.85;

    /// <summary>
    /// Compacts the store's environment (<see cref="StorageEnvironment.Compact"/>), recompressing document bodies
    /// stored as they are or with an older dictionary with their collection's current one as they are copied, after
    /// dropping the batch times no document uses any more (<see cref="DropUnusedWriteTimes"/>).
    /// </summary>
    /// <param name="progress">Told after every committed batch of the copy.</param>
    /// <param name="cancellation">Stops the copy before the swap; the old file stays.</param>
    /// <returns>What the compaction did.</returns>
    public CompactionResult Compact(Action<CompactionProgress>? progress = null, CancellationToken cancellation = default)
    {
        using var recompressor = new DocumentRecompressor(this);
        return Environment.Compact(progress, recompressor, cancellation);
    }

    /// <summary>
    /// Estimates what <see cref="Compact"/> would give back: free pages, leaf pages the copy would fill instead, and
    /// bodies it would recompress, the saving of those measured on a sample of <paramref name="sample"/> of them
    /// compressed again. Reads every page and every document's header once (no body but the sample's is
    /// decompressed); for a background decision, not a request's path.
    /// </summary>
    /// <param name="sample">Recompressible bodies compressed again to measure the saving.</param>
    /// <returns>The estimate.</returns>
    public CompactionEstimate EstimateCompaction(int sample = 64)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(sample, 1);
        var space = Environment.ReportSpace();
        long slack = 0;
        foreach (var tree in space.Trees)
        {
            var packed = (long)Math.Ceiling(tree.UsedLeafBytes / (TreePage.Capacity * PackedLeafFill));
            slack += Math.Max(0, tree.LeafPages - packed) * space.PageSize;
            var packedRuns = (long)Math.Ceiling((tree.HeapValueBytes + tree.PackableOverflowBytes) / (Tree.HeapRunBytes * PackedHeapFill));
            slack += Math.Max(0, tree.HeapRunPages + tree.PackableOverflowPages - packedRuns * Tree.HeapRunPages) * space.PageSize;
        }
        var (documents, saved) = EstimateRecompression(sample);
        return new CompactionEstimate(space.AllocatedPages * space.PageSize, space.FreePages * space.PageSize, slack, documents, saved);
    }

    /// <summary>
    /// Counts the bodies a copy would rewrite and estimates what that saves from a reservoir sample of each kind: those
    /// only awaiting the compaction's level (a few bytes each) apart from those under an older dictionary or form (often
    /// half their size), so that a few of the second among many of the first are not missed by one small sample.
    /// </summary>
    private (long Documents, long SavedBytes) EstimateRecompression(int sampleSize)
    {
        using var recompressor = new DocumentRecompressor(this);
        var outdated = new RecompressionSample(sampleSize);
        var levelOnly = new RecompressionSample(sampleSize);
        using (var read = Environment.BeginRead())
        {
            var cursor = read.OpenTree(DocsTree)!.CreateCursor();
            for (var more = cursor.First(); more; more = cursor.MoveNext())
            {
                var key = cursor.Key;
                var value = cursor.Value;
                if (recompressor.MayRewrite(new Document(key, value, CollectionNames), out var forLevelOnly))
                    (forLevelOnly ? levelOnly : outdated).Offer(key, value);
            }
        }
        var output = new ArrayBufferWriter<byte>();
        return (outdated.Documents + levelOnly.Documents, outdated.EstimateSaved(recompressor, output) + levelOnly.EstimateSaved(recompressor, output));
    }

    /// <summary>A reservoir sample of the records of one kind a copy would rewrite, and what rewriting them all would save.</summary>
    private sealed class RecompressionSample(int size)
    {
        private readonly List<(byte[] Key, byte[] Value)> _records = new(size);

        // Seeded: the same store gives the same estimate, so a decision made on it can be reproduced.
        private readonly Random _random = new(size);

        private long _storedBytes;

        public long Documents { get; private set; }

        public void Offer(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
        {
            Documents++;
            _storedBytes += value.Length;
            if (_records.Count < size)
                _records.Add((key.ToArray(), value.ToArray()));
            else if (_random.NextInt64(Documents) is var slot && slot < size)
                _records[(int)slot] = (key.ToArray(), value.ToArray());
        }

        public long EstimateSaved(DocumentRecompressor recompressor, ArrayBufferWriter<byte> output)
        {
            long sampledBytes = 0, sampledSaved = 0;
            foreach (var (key, value) in _records)
            {
                output.ResetWrittenCount();
                sampledBytes += value.Length;
                if (recompressor.TryRewrite(DocsTree, key, value, output))
                    sampledSaved += Math.Max(0, value.Length - output.WrittenCount);
            }
            return sampledBytes == 0 ? 0 : (long)(_storedBytes * (sampledSaved / (double)sampledBytes));
        }
    }
}
