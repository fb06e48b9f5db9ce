using Folio.Indexing.Postings;

namespace Folio.Indexing.Tests.Postings;

public class BlockCodecTests
{
    [Fact]
    public void Section_RoundTrips_EveryWidthAndPolicy()
    {
        var random = new Random(1);
        for (var width = 0; width <= 63; width++)
        {
            foreach (var policy in Enum.GetValues<BlockEncodingPolicy>())
            {
                foreach (var count in new[] { 127, 128 })
                {
                    var values = new ulong[count];
                    for (var i = 0; i < count; i++)
                    {
                        values[i] = width == 0 ? 0 : (ulong)random.NextInt64() & ((1UL << width) - 1);
                    }

                    AssertRoundTrips(values, policy);
                }
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(8)]
    [InlineData(40)]
    public void Section_WithOutliers_RoundTripsAndStaysSmall(int outliers)
    {
        var random = new Random(outliers);
        var values = new ulong[127];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = (ulong)random.Next(4);
        }

        for (var i = 0; i < outliers; i++)
        {
            values[random.Next(values.Length)] = (ulong)random.NextInt64(1L << 30, long.MaxValue);
        }

        var length = AssertRoundTrips(values, BlockEncodingPolicy.Auto);

        if (outliers <= BlockCodec.MaxExceptions)
        {
            // 2-bit packing (32 bytes) plus at most 10 bytes per outlier.
            Assert.True(length <= 2 + 32 + outliers * 10, $"{length} bytes");
        }
    }

    [Fact]
    public void Plan_PicksVarint_WhenPackingWouldBeMuchLarger()
    {
        var values = new ulong[127];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = i % 2 == 0 ? 1UL : 1UL << 40;
        }

        Assert.True(BlockCodec.Plan(values, BlockEncodingPolicy.Auto).IsVarint);
    }

    [Fact]
    public void Read_Throws_OnAnUnknownHeaderOrBadException()
    {
        var values = new ulong[127];

        Assert.Throws<InvalidDataException>(() => Read([0x81], values));
        Assert.Throws<InvalidDataException>(() => Read([0x40 | 1, 0], values));
        Assert.Throws<InvalidDataException>(() => Read([0x40, 1, 200, 1], values));
        Assert.Throws<InvalidDataException>(() => Read([0x40 | 63, 1, .. new byte[1001], 0, 2], values));
        Assert.Throws<InvalidDataException>(() => Read([5, 1, 2], values));
    }

    private static int AssertRoundTrips(ulong[] values, BlockEncodingPolicy policy)
    {
        var plan = BlockCodec.Plan(values, policy);
        var buffer = new byte[BlockCodec.MaxLength(values.Length) + 3];
        var end = BlockCodec.Write(values, plan, buffer, 3);
        Assert.Equal(plan.Length, end - 3);

        var decoded = new ulong[values.Length];
        var position = 3;
        BlockCodec.Read(buffer.AsSpan(0, end), ref position, decoded);
        Assert.Equal(end, position);
        Assert.Equal(values, decoded);
        return plan.Length;
    }

    private static void Read(byte[] bytes, ulong[] destination)
    {
        var position = 0;
        BlockCodec.Read(bytes, ref position, destination);
    }
}
