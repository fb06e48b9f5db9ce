using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>The token streams of entry records (<see cref="TokenStream"/>, <see cref="TokenReader"/>): round trips, layout and truncation.</summary>
public class TokenStreamTests
{
    private const byte Sentinel = 0xA5;

    /// <summary>Encodes the tokens after a one-byte prefix and before a sentinel byte, so reads must start and stop at the stream's bounds.</summary>
    private static byte[] Encode(long[] ids, int[] distances)
    {
        var record = new List<byte> { 0x5A };
        TokenStream.Write(record, ids, distances);
        record.Add(Sentinel);
        return [.. record];
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    public void Write_ThenRead_GivesBackEveryTokenAndPosition(int seed)
    {
        var random = new Random(seed);
        for (var round = 0; round < 200; round++)
        {
            var count = random.Next(0, 120);
            var width = random.Next(1, TokenStream.MaxWidth + 1);
            var ids = new long[count];
            var distances = new int[count];
            long total = 0;
            for (var i = 0; i < count; i++)
            {
                ids[i] = random.NextInt64(0, 1L << (width - 1)) | (random.Next(4) == 0 ? 1L << (width - 1) : 0);
                var distance = random.Next(10) switch
                {
                    < 4 => 1,
                    4 => 0,
                    5 => 2,
                    6 => 3,
                    7 => random.Next(4, 40),
                    8 => random.Next(40, 100_000),
                    _ => random.Next(100_000, 200_000_000),
                };
                distances[i] = (int)Math.Min(distance, IndexBatch.MaxPosition - total);
                total += distances[i];
            }

            var record = Encode(ids, distances);
            var reader = new TokenReader(record, 1);
            Assert.Equal(count, reader.Remaining);
            var position = 0;
            for (var i = 0; i < count; i++)
            {
                Assert.Equal(ids[i], reader.Next());
                position += distances[i];
                Assert.Equal(position, reader.Position);
            }
            Assert.Equal(0, reader.Remaining);
            Assert.Equal(record.Length - 1, reader.End);
            Assert.Equal(Sentinel, record[reader.End]);
        }
    }

    [Fact]
    public void Write_PacksIdsByTheirClass_AndCommonDistancesInOneToFourBits()
    {
        // 17 tokens of 12-bit ids at distance 1: count, width, then 17 × (3 + 11 + 1) bits in 32 bytes.
        var ids = Enumerable.Range(0, 17).Select(i => 2048L + i).ToArray();
        Assert.Equal(1 + 1 + 1 + 32 + 1, Encode(ids, Enumerable.Repeat(1, 17).ToArray()).Length);

        // Beside one id of 12 bits, 16 ids of 6 bits take 3 + 5 and 16 of 3 bits 3 + 5 (the raw class): 15 + 32 × 9 bits in 38 bytes.
        ids = [4095, .. Enumerable.Range(0, 16).Select(i => 32L + i), .. Enumerable.Range(0, 16).Select(i => 4L + i % 4)];
        var mixed = Encode(ids, Enumerable.Repeat(1, 33).ToArray());
        Assert.Equal(1 + 1 + 1 + 38 + 1, mixed.Length);
        var reader = new TokenReader(mixed, 1);
        foreach (var id in ids)
            Assert.Equal(id, reader.Next());

        // Below 8 bits ids take the width. Distances 1, 2, 3 and 0 take 1, 2, 3 and 4 bits, 4 takes 4 + 1 (gamma of 1), ids of 0 one bit each: 20 bits.
        var record = Encode(new long[5], [1, 2, 3, 0, 4]);
        Assert.Equal(1 + 1 + 1 + 3 + 1, record.Length);
        Assert.Equal(1, record[2]);
    }

    [Fact]
    public void Read_ThrowsCorruption_WhenTheStreamIsCutShort()
    {
        var ids = new long[] { 5, 4000, 0, 77, 1_000_000, 3 };
        var distances = new[] { 0, 1, 2, 3, 5_000, 1 };
        var record = new List<byte>();
        TokenStream.Write(record, ids, distances);
        var whole = record.ToArray();
        // Every cut after the count byte loses the width or bits a token needs.
        for (var length = 1; length < whole.Length; length++)
        {
            var cut = whole[..length];
            Assert.Throws<CorruptionException>(() =>
            {
                var reader = new TokenReader(cut, 0);
                reader.SkipRest();
            });
        }
    }

    [Theory]
    [InlineData(new byte[] { 1, 0, 0, 0 })]
    [InlineData(new byte[] { 1, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0 })]
    [InlineData(new byte[] { 11, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 })]
    [InlineData(new byte[] { 0x85, 0x80, 0x80, 0x80, 0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0 })]
    public void Read_ThrowsCorruption_ForAWidthOrCountNoStreamHas(byte[] record)
    {
        Assert.Throws<CorruptionException>(() => new TokenReader(record, 0));
    }

    [Fact]
    public void Read_ThrowsCorruption_WhenDistancesAddUpPastTheLastPosition()
    {
        var half = IndexBatch.MaxPosition / 2 + 1;
        var record = new List<byte>();
        TokenStream.Write(record, [1, 2, 3], [half, half, 1]);
        var bytes = record.ToArray();
        Assert.Throws<CorruptionException>(() =>
        {
            var reader = new TokenReader(bytes, 0);
            reader.SkipRest();
        });
    }
}
