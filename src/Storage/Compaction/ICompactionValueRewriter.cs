using System.Buffers;

namespace Folio.Storage.Compaction;

/// <summary>
/// Lets the layer above rewrite values as a compaction copies them (document bodies recompressed with the
/// current dictionary). Called on the compaction's thread, once per copied entry.
/// </summary>
public interface ICompactionValueRewriter
{
    /// <summary>
    /// Writes the value to store instead of <paramref name="value"/> into <paramref name="output"/> and returns
    /// true, or returns false to copy it as it is. The rewritten value must read back as the same data.
    /// </summary>
    bool TryRewrite(string tree, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, IBufferWriter<byte> output);

    /// <summary>
    /// Called once the compaction has begun (no other one runs) and before the copy takes its snapshot: the layer above
    /// may drop what no copy needs to keep (batch times no document uses). Writes through its own transactions.
    /// </summary>
    void BeforeCopy(CancellationToken cancellation);
}
