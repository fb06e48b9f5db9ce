using System.Buffers;
using System.Text;
using Folio.Storage.Journal;

namespace Folio.Storage.Tests.Durability;

/// <summary>The journal's LZ4 effort: raised when compressing costs more than writing, and blocks that decode on their own at any effort.</summary>
public class RecordCompressorTests
{
    private static byte[] Text(int seed, int length)
    {
        var random = new Random(seed);
        var text = new StringBuilder(length + 32);
        while (text.Length < length)
            text.Append("{\"Company\":\"companies/").Append(random.Next(5000)).Append("\",\"Freight\":").Append(random.Next(300)).Append('}');
        return Encoding.UTF8.GetBytes(text.ToString(0, length));
    }

    private static void CompressOnce(RecordCompressor compressor, byte[] payload)
    {
        var packed = compressor.TryCompress(payload, out _);
        Assert.NotNull(packed);
        ArrayPool<byte>.Shared.Return(packed);
    }

    [Fact]
    public void Adjust_CompressingSlowerThanWriting_RaisesTheAcceleration_AndWritingSlowerLowersItBack()
    {
        var compressor = new RecordCompressor();
        var payload = Text(1, 40_000);
        for (var i = 0; i < 10; i++)
        {
            CompressOnce(compressor, payload);
            compressor.Adjust(writeTicks: 0, storedBytes: 4096, rawBytes: 8192);
        }
        Assert.Equal(RecordCompressor.MaxAcceleration, compressor.Acceleration);

        CompressOnce(compressor, payload);
        compressor.Adjust(writeTicks: long.MaxValue / 4, storedBytes: 4096, rawBytes: 8192);
        Assert.Equal(RecordCompressor.MaxAcceleration / 2, compressor.Acceleration);

        // A record not compressed (too small to save a block) leaves the effort as it is.
        Assert.Null(compressor.TryCompress(payload.AsSpan(0, 1000), out _));
        compressor.Adjust(writeTicks: 0, storedBytes: 4096, rawBytes: 8192);
        Assert.Equal(RecordCompressor.MaxAcceleration / 2, compressor.Acceleration);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(64)]
    public void TryCompress_AtAnyAcceleration_GivesBlocksThatDecodeOnTheirOwn(int acceleration)
    {
        var compressor = new RecordCompressor();
        while (compressor.Acceleration < acceleration)
        {
            CompressOnce(compressor, Text(0, 20_000));
            compressor.Adjust(writeTicks: 0, storedBytes: 4096, rawBytes: 8192);
        }
        Assert.Equal(acceleration, compressor.Acceleration);

        // One after the other, as the journal does: each must decode without the one before it.
        for (var seed = 1; seed <= 3; seed++)
        {
            var payload = Text(seed, 30_000 + seed);
            var packed = compressor.TryCompress(payload, out var end);
            Assert.NotNull(packed);
            try
            {
                var decoded = new byte[payload.Length];
                Assert.True(RecordCompressor.TryDecompress(packed.AsSpan(TransactionRecord.HeaderSize, end - TransactionRecord.HeaderSize), decoded));
                Assert.Equal(payload, decoded);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(packed);
            }
        }
    }
}
