using Folio.Storage.Compaction;
using Folio.Storage.Documents.Compression;

namespace Folio.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>
    /// Compacts the store's environment (<see cref="StorageEnvironment.Compact"/>), recompressing document bodies
    /// stored as they are or with an older dictionary with their collection's current one as they are copied.
    /// </summary>
    /// <param name="progress">Told after every committed batch of the copy.</param>
    /// <param name="cancellation">Stops the copy before the swap; the old file stays.</param>
    /// <returns>What the compaction did.</returns>
    public CompactionResult Compact(Action<CompactionProgress>? progress = null, CancellationToken cancellation = default)
    {
        using var recompressor = new DocumentRecompressor(this);
        return Environment.Compact(progress, recompressor, cancellation);
    }
}
