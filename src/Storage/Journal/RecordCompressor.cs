using System.Buffers;
using K4os.Compression.LZ4;

namespace Folio.Storage.Journal;

/// <summary>
/// LZ4 for journal record payloads. A record is padded to a disk block, so compression only pays when it saves at
/// least one block; otherwise the record stays raw and recovery has nothing to decompress.
/// </summary>
internal sealed class RecordCompressor
{
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
        var written = LZ4Codec.Encode(payload, packed.AsSpan(TransactionRecord.HeaderSize, bound), LZ4Level.L00_FAST);
        if (written <= 0 || TransactionRecord.Align(TransactionRecord.HeaderSize + (long)written) >= rawRecord)
        {
            ArrayPool<byte>.Shared.Return(packed);
            return null;
        }
        payloadEnd = TransactionRecord.HeaderSize + written;
        return packed;
    }

    /// <summary>Decompresses a stored payload; false when it does not decode to exactly <paramref name="raw"/>'s length.</summary>
    public static bool TryDecompress(ReadOnlySpan<byte> stored, Span<byte> raw) => LZ4Codec.Decode(stored, raw) == raw.Length;
}
