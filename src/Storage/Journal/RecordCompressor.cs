using System.Buffers;
using System.Diagnostics;
using Folio.Storage.Platform;
using K4os.Compression.LZ4;

namespace Folio.Storage.Journal;

/// <summary>
/// LZ4 for journal record payloads. A record is padded to a disk block, so compression only pays when it saves at
/// least one block; otherwise the record stays raw and recovery has nothing to decompress. The effort follows what
/// each record cost: compressing runs inside the commit, so when it takes longer than writing and syncing the record
/// raw would have (the measured write of the stored bytes, scaled to the raw length), the acceleration doubles (faster,
/// less saved), and when it takes under a quarter of that, it halves back towards 1.
/// </summary>
internal sealed class RecordCompressor
{
    /// <summary>The highest acceleration: beyond it LZ4 saves little on pages and costs nearly nothing anyway.</summary>
    public const int MaxAcceleration = 64;

    private long _lastCompressTicks;
    // A payload that fits the first block with its header cannot save a block however well it compresses.
    private const int MinimumPayload = TransactionRecord.Alignment - TransactionRecord.HeaderSize + 1;

    /// <summary>
    /// A pooled buffer holding the compressed payload after <see cref="TransactionRecord.HeaderSize"/> bytes left for
    /// the header, with room for the padding, and in <paramref name="payloadEnd"/> where the payload ends; null when
    /// compressing does not save a block. The caller returns the buffer to <see cref="ArrayPool{T}.Shared"/>.
    /// </summary>
    public byte[]? TryCompress(ReadOnlySpan<byte> payload, out int payloadEnd)
    {
        payloadEnd = 0;
        if (payload.Length < MinimumPayload)
            return null;
        var rawRecord = (int)TransactionRecord.Align(TransactionRecord.HeaderSize + (long)payload.Length);
        var bound = LZ4Codec.MaximumOutputSize(payload.Length);
        var packed = ArrayPool<byte>.Shared.Rent(Math.Max(rawRecord, TransactionRecord.HeaderSize + bound));
        var started = Stopwatch.GetTimestamp();
        var written = Lz4Block.Compress(payload, packed.AsSpan(TransactionRecord.HeaderSize, bound), Acceleration);
        _lastCompressTicks = Stopwatch.GetTimestamp() - started;
        if (written <= 0 || TransactionRecord.Align(TransactionRecord.HeaderSize + (long)written) >= rawRecord)
        {
            ArrayPool<byte>.Shared.Return(packed);
            return null;
        }
        payloadEnd = TransactionRecord.HeaderSize + written;
        return packed;
    }

    /// <summary>The acceleration the next record is compressed with.</summary>
    public int Acceleration { get; private set; } = 1;

    /// <summary>
    /// Sets the effort from the record just compressed: what compressing it took against what writing it raw would have,
    /// from <paramref name="writeTicks"/> (<see cref="Stopwatch"/> ticks to write and sync the <paramref name="storedBytes"/>
    /// written) scaled to its <paramref name="rawBytes"/>.
    /// </summary>
    public void Adjust(long writeTicks, long storedBytes, long rawBytes)
    {
        var compress = _lastCompressTicks;
        _lastCompressTicks = 0;
        if (compress == 0)
            return;
        var rawWrite = storedBytes <= 0 ? writeTicks : (long)(writeTicks * ((double)rawBytes / storedBytes));
        if (compress > rawWrite)
            Acceleration = Math.Min(MaxAcceleration, Acceleration * 2);
        else if (compress * 4 < rawWrite)
            Acceleration = Math.Max(1, Acceleration / 2);
    }

    /// <summary>Decompresses a stored payload; false when it does not decode to exactly <paramref name="raw"/>'s length.</summary>
    public static bool TryDecompress(ReadOnlySpan<byte> stored, Span<byte> raw) => LZ4Codec.Decode(stored, raw) == raw.Length;
}
