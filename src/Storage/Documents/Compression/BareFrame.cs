namespace Folio.Storage.Documents.Compression;

/// <summary>
/// A magicless Zstd frame of one compressed block stored without the 4 bytes a read can put back: the frame header's
/// descriptor, which is 0 for every frame the store writes (no content size, no checksum, no dictionary id, not a single
/// segment), and the block's 3-byte header, whose last-block bit and type are those of a lone compressed block and whose
/// size is what is left of the body. What stays is the window descriptor and the block. A typical body of the search
/// records is 107 bytes, so the 4 bytes are about 4% of it. Frames of more than one block (bodies over 128 KB), of a raw
/// or repeated-byte block, or with any other descriptor are stored whole.
/// </summary>
internal static class BareFrame
{
    /// <summary>The bytes a bare frame leaves out: the descriptor and the block header.</summary>
    public const int SavedBytes = 4;

    private const int FrameHeader = 2;
    private const int BlockHeader = 3;
    private const int CompressedLastBlock = (2 << 1) | 1;
    private const int MaxBlock = 128 << 10;

    /// <summary>
    /// Makes the frame in the first <paramref name="length"/> bytes of <paramref name="frame"/> bare in place and returns
    /// its new length, or returns <paramref name="length"/> unchanged (and <paramref name="stripped"/> false) when the
    /// frame is not one a read could put back together.
    /// </summary>
    public static int TryStrip(Span<byte> frame, int length, out bool stripped)
    {
        stripped = false;
        if (length <= FrameHeader + BlockHeader || frame[0] != 0)
            return length;
        var header = frame[2] | frame[3] << 8 | frame[4] << 16;
        if ((header & 7) != CompressedLastBlock || header >> 3 != length - FrameHeader - BlockHeader)
            return length;
        frame[0] = frame[1];
        frame[(FrameHeader + BlockHeader)..length].CopyTo(frame[1..]);
        stripped = true;
        return length - SavedBytes;
    }

    /// <summary>
    /// Copies a whole frame into <paramref name="buffer"/> (grown when short) and makes the copy bare; false when the
    /// frame is not one a read could put back together.
    /// </summary>
    public static bool TryStripCopy(ReadOnlySpan<byte> frame, ref byte[] buffer, out int bareLength)
    {
        if (buffer.Length < frame.Length)
            buffer = new byte[frame.Length];
        frame.CopyTo(buffer);
        bareLength = TryStrip(buffer, frame.Length, out var stripped);
        return stripped;
    }

    /// <summary>The length of the whole frame <paramref name="bare"/> came from.</summary>
    public static int FrameLength(ReadOnlySpan<byte> bare) => bare.Length + SavedBytes;

    /// <summary>Puts the whole magicless frame back together from <paramref name="bare"/> into <paramref name="frame"/>, which holds <see cref="FrameLength"/> bytes.</summary>
    public static void Rebuild(ReadOnlySpan<byte> bare, Span<byte> frame)
    {
        if (bare.Length < 2 || bare.Length - 1 > MaxBlock)
            throw new CorruptionException($"A bare compressed body of {bare.Length} bytes cannot be a window descriptor and one block.");
        var header = (bare.Length - 1) << 3 | CompressedLastBlock;
        frame[0] = 0;
        frame[1] = bare[0];
        frame[2] = (byte)header;
        frame[3] = (byte)(header >> 8);
        frame[4] = (byte)(header >> 16);
        bare[1..].CopyTo(frame[(FrameHeader + BlockHeader)..]);
    }
}
