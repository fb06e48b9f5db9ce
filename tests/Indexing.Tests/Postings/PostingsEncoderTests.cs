using System.Buffers;
using Folio.Indexing.Postings;
using static Folio.Indexing.Tests.Postings.PostingsTestData;

namespace Folio.Indexing.Tests.Postings;

public class PostingsEncoderTests
{
    public static TheoryData<int, Gaps> Sizes()
    {
        var data = new TheoryData<int, Gaps>();
        foreach (var size in new[] { 0, 1, 127, 128, 129, 1000, 100_000 })
        {
            foreach (var gaps in Enum.GetValues<Gaps>())
            {
                data.Add(size, gaps);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public void Encode_RoundTrips_RandomListsWithoutFrequencies(int size, Gaps gaps)
    {
        for (var seed = 0; seed < 3; seed++)
        {
            var ids = Ids(size, seed * 7919 + size, gaps);
            var encoded = PostingsEncoder.EncodeToArray(ids);

            Assert.Equal(size, PostingsDecoder.GetCount(encoded));
            Assert.False(PostingsDecoder.HasFrequencies(encoded));
            Assert.Equal(ids, DecodeAll(encoded, out var frequencies));
            Assert.All(frequencies, f => Assert.Equal(1, f));
            var (iterated, iteratedFrequencies) = Iterate(encoded);
            Assert.Equal(ids, iterated);
            Assert.All(iteratedFrequencies, f => Assert.Equal(1, f));
        }
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public void Encode_RoundTrips_RandomListsWithFrequencies(int size, Gaps gaps)
    {
        for (var seed = 0; seed < 3; seed++)
        {
            var ids = Ids(size, seed * 31 + size, gaps);
            var frequencies = Frequencies(size, seed);
            var encoded = PostingsEncoder.EncodeToArray(ids, frequencies);

            Assert.Equal(size, PostingsDecoder.GetCount(encoded));
            Assert.Equal(size > 0, PostingsDecoder.HasFrequencies(encoded));
            Assert.Equal(ids, DecodeAll(encoded, out var decodedFrequencies));
            Assert.Equal(frequencies, decodedFrequencies);
            var (iterated, iteratedFrequencies) = Iterate(encoded);
            Assert.Equal(ids, iterated);
            Assert.Equal(frequencies, iteratedFrequencies);
        }
    }

    [Theory]
    [InlineData((int)BlockEncodingPolicy.PackedOnly)]
    [InlineData((int)BlockEncodingPolicy.VarintOnly)]
    public void Encode_RoundTrips_ForcedBlockEncoding(int forcedPolicy)
    {
        var policy = (BlockEncodingPolicy)forcedPolicy;
        foreach (var gaps in Enum.GetValues<Gaps>())
        {
            var ids = Ids(5_000, 11, gaps);
            var frequencies = Frequencies(5_000, 12);
            var encoded = PostingsEncoder.EncodeToArray(ids, frequencies, policy);

            Assert.Equal(ids, DecodeAll(encoded, out var decodedFrequencies));
            Assert.Equal(frequencies, decodedFrequencies);
        }
    }

    [Fact]
    public void Encode_RoundTrips_IdsAtTheTopOfTheRange()
    {
        var ids = Ids(300, 5, Gaps.Mixed, long.MaxValue - (300L << 41));
        ids[^1] = long.MaxValue;
        var withZero = new long[] { 0, long.MaxValue };

        Assert.Equal(ids, DecodeAll(PostingsEncoder.EncodeToArray(ids), out _));
        Assert.Equal(withZero, DecodeAll(PostingsEncoder.EncodeToArray(withZero), out _));
        Assert.Equal(ids, Iterate(PostingsEncoder.EncodeToArray(ids, Enumerable.Repeat(int.MaxValue, 300).ToArray())).Ids);
    }

    [Fact]
    public void Encode_ConsecutiveIds_CostAlmostNothingPerId()
    {
        var encoded = PostingsEncoder.EncodeToArray(Ids(100_000, 1, Gaps.Consecutive));

        // Width-zero blocks: a section header and a skip entry per 128 ids.
        Assert.True(encoded.Length < 100_000 / 128 * 10, $"{encoded.Length} bytes");
    }

    [Fact]
    public void Encode_OneHugeGapInABlock_PatchesItAsAnException()
    {
        var ids = Ids(128, 3, Gaps.Dense);
        for (var i = 64; i < ids.Length; i++)
        {
            ids[i] += 1L << 40;
        }

        var encoded = PostingsEncoder.EncodeToArray(ids);

        // Packing all 127 gaps at 41 bits would take ~650 bytes; 2 bits plus one exception fit in ~50.
        Assert.True(encoded.Length < 64, $"{encoded.Length} bytes");
        Assert.Equal(ids, DecodeAll(encoded, out _));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(100)]
    [InlineData(1000)]
    public void Encode_WritesIntoABufferWriter_ExactlyTheEncodedSize(int size)
    {
        var ids = Ids(size, 9);
        var expected = PostingsEncoder.EncodeToArray(ids);
        var writer = new ArrayBufferWriter<byte>();
        writer.Write(new byte[] { 42 });

        var written = PostingsEncoder.Encode(ids, default, writer);

        Assert.Equal(expected.Length, written);
        Assert.Equal(expected, writer.WrittenSpan.Slice(1).ToArray());
    }

    [Theory]
    [InlineData(0, false)]
    [InlineData(127, true)]
    [InlineData(129, false)]
    [InlineData(10_000, true)]
    public void Encode_WorstCaseLists_FitInTheMaxEncodedLength(int size, bool withFrequencies)
    {
        // The largest gaps and frequencies the format allows, spread so every block is as wide as it gets.
        var ids = new long[size];
        for (var i = 0; i < size; i++)
        {
            ids[i] = (long)(long.MaxValue / (double)size * i);
        }

        var frequencies = withFrequencies ? Enumerable.Repeat(int.MaxValue, size).ToArray() : [];
        var buffer = new byte[PostingsEncoder.GetMaxEncodedLength(size, withFrequencies)];
        foreach (var policy in Enum.GetValues<BlockEncodingPolicy>())
        {
            var written = PostingsEncoder.Encode(ids, frequencies, buffer, policy);

            Assert.Equal(ids, DecodeAll(buffer.AsSpan(0, written).ToArray(), out _));
        }
    }

    [Fact]
    public void Encode_Throws_WhenTheDestinationIsTooSmall()
    {
        var ids = Ids(500, 2);
        var needed = PostingsEncoder.EncodeToArray(ids).Length;

        Assert.Throws<ArgumentException>(() => PostingsEncoder.Encode(ids, default, new byte[needed - 1]));
        Assert.Equal(needed, PostingsEncoder.Encode(ids, default, new byte[needed]));
    }

    [Fact]
    public void Encode_Throws_WhenIdsAreNotStrictlyIncreasingOrNegative()
    {
        Assert.Throws<ArgumentException>(() => PostingsEncoder.EncodeToArray([1, 1]));
        Assert.Throws<ArgumentException>(() => PostingsEncoder.EncodeToArray([5, 3]));
        Assert.Throws<ArgumentException>(() => PostingsEncoder.EncodeToArray([-1, 3]));
    }

    [Fact]
    public void Encode_Throws_WhenFrequenciesAreInvalid()
    {
        Assert.Throws<ArgumentException>(() => PostingsEncoder.EncodeToArray([1, 2], [1]));
        Assert.Throws<ArgumentException>(() => PostingsEncoder.EncodeToArray([1, 2], [1, 0]));
        Assert.Throws<ArgumentException>(() => PostingsEncoder.EncodeToArray([1, 2], [-4, 1]));
    }
}
