using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>A posting list's positions (<see cref="PositionLists"/>): round trips, the chosen width, and corrupt input.</summary>
public class PositionListsTests
{
    private static int[] RoundTrip(int[] frequencies, int[] positions, out byte[] encoded)
    {
        var buffer = new byte[1];
        var length = PositionLists.Encode(frequencies, positions, ref buffer);
        encoded = buffer[..length];
        var decoded = new int[positions.Length];
        PositionLists.Decode(encoded, frequencies, decoded);
        return decoded;
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Encode_RoundTrips_RandomLists(int seed)
    {
        var random = new Random(seed);
        for (var round = 0; round < 200; round++)
        {
            var count = random.Next(1, 600);
            var frequencies = new int[count];
            var positions = new List<int>();
            // Short texts mostly, with now and then a long one whose positions reach far.
            var reach = random.Next(4) == 0 ? IndexBatch.MaxPosition : random.Next(8, 200);
            for (var i = 0; i < count; i++)
            {
                frequencies[i] = random.Next(1, 6);
                var at = new SortedSet<int>();
                while (at.Count < frequencies[i])
                    at.Add(random.Next(0, reach));
                positions.AddRange(at);
            }
            Assert.Equal(positions.ToArray(), RoundTrip(frequencies, [.. positions], out _));
        }
    }

    [Fact]
    public void Encode_RoundTrips_RepeatedPositionsAndTheLimits()
    {
        int[] frequencies = [3, 1, 2, 1];
        int[] positions = [0, 0, 0, IndexBatch.MaxPosition, 5, 5, 0];
        Assert.Equal(positions, RoundTrip(frequencies, positions, out _));
    }

    [Fact]
    public void Encode_TakesAFewBitsAPosition_ForShortTexts_AndEscapesAFarOne()
    {
        // 1,000 ids with one position each below 32: five bits each, and one far position costs an escape, not a wider list.
        var frequencies = Enumerable.Repeat(1, 1000).ToArray();
        var positions = Enumerable.Range(0, 1000).Select(i => i % 31).ToArray();
        RoundTrip(frequencies, positions, out var encoded);
        Assert.Equal(5, encoded[0]);
        // The width, the block count, seven blocks' starts of two bytes each, then 625 bytes of values.
        Assert.Equal(1 + 1 + 7 * 2 + 625, encoded.Length);
        positions[500] = 1_000_000;
        Assert.Equal(positions, RoundTrip(frequencies, positions, out var withFar));
        Assert.Equal(5, withFar[0]);
        Assert.InRange(withFar.Length, 643, 649);
    }

    [Fact]
    public void Encode_FitsTheRoomItReserves_WhenEveryValueIsEscaped()
    {
        // Mostly zeros choose width 0, where every value is escaped; 2^k − 1 has the longest escape of its bit length.
        foreach (var far in new[] { 1, 3, 7, 255, 65535, (1 << 30) - 1, IndexBatch.MaxPosition })
        {
            var frequencies = Enumerable.Repeat(1, 64).ToArray();
            var positions = new int[64];
            positions[63] = far;
            Assert.Equal(positions, RoundTrip(frequencies, positions, out _));
            Array.Fill(positions, far);
            Assert.Equal(positions, RoundTrip(frequencies, positions, out _));
        }
    }

    [Fact]
    public void DecodeNext_FromEachBlocksStart_ReadsWhatTheWholeDecodeReads()
    {
        var random = new Random(7);
        var frequencies = Enumerable.Range(0, 1000).Select(_ => random.Next(1, 4)).ToArray();
        var positions = new List<int>();
        foreach (var frequency in frequencies)
        {
            var position = random.Next(0, 20);
            for (var k = 0; k < frequency; k++, position += random.Next(0, 50))
                positions.Add(position);
        }
        var whole = RoundTrip(frequencies, [.. positions], out var encoded);
        var starts = new long[1];
        var streamStart = PositionLists.ReadTable(encoded, ref starts, out var width, out var blocks);
        Assert.Equal(8, blocks);
        var offset = 0;
        for (var block = 0; block < blocks; block++)
        {
            var ids = frequencies.AsSpan(block * 128, Math.Min(128, frequencies.Length - block * 128));
            var decoded = new int[PositionLists.Count(ids)];
            var bits = starts[block];
            PositionLists.DecodeNext(encoded, streamStart, width, ref bits, ids, decoded);
            Assert.Equal(whole.AsSpan(offset, decoded.Length).ToArray(), decoded);
            offset += decoded.Length;
        }
    }

    [Fact]
    public void ReadTable_KeepsALongerArray_ForTheNextListAReaderLoads()
    {
        var frequencies = Enumerable.Repeat(1, 300).ToArray();
        RoundTrip(frequencies, Enumerable.Range(0, 300).ToArray(), out var encoded);
        var starts = new long[20];
        var kept = starts;

        PositionLists.ReadTable(encoded, ref starts, out _, out var blocks);

        Assert.Equal(3, blocks);
        Assert.Same(kept, starts);
        Assert.Equal(0, starts[0]);
        Assert.True(starts[1] > 0 && starts[2] > starts[1]);
    }

    [Fact]
    public void Decode_ThrowsCorruption_WhenTheTablePutsABlockElsewhere()
    {
        var frequencies = Enumerable.Repeat(1, 300).ToArray();
        var positions = Enumerable.Range(0, 300).Select(i => i % 17).ToArray();
        RoundTrip(frequencies, positions, out var encoded);
        // Byte 2 starts the second block's distance from the first's (128 values of 5 bits: 640, a two-byte varint).
        var moved = (byte[])encoded.Clone();
        moved[2] ^= 0x01;
        Assert.Throws<CorruptionException>(() => PositionLists.Decode(moved, frequencies, new int[300]));
        var fewer = (byte[])encoded.Clone();
        fewer[1] = 1;
        Assert.Throws<CorruptionException>(() => PositionLists.Decode(fewer, frequencies, new int[300]));
    }

    [Fact]
    public void Encode_Refuses_PositionsThatDescendWithinAnEntry()
    {
        var buffer = new byte[16];
        Assert.Throws<ArgumentException>(() => PositionLists.Encode([2], [5, 4], ref buffer));
    }

    [Fact]
    public void Decode_ThrowsCorruption_OnEveryCutAndOnTrailingBytesOrAWrongWidth()
    {
        int[] frequencies = [2, 3, 1, 4];
        int[] positions = [1, 7, 0, 2, 900, 3, 10, 11, 12, 5000];
        RoundTrip(frequencies, positions, out var encoded);
        for (var cut = 0; cut < encoded.Length; cut++)
        {
            var prefix = encoded[..cut];
            Assert.Throws<CorruptionException>(() => PositionLists.Decode(prefix, frequencies, new int[positions.Length]));
        }
        byte[] longer = [.. encoded, 0xFF];
        Assert.Throws<CorruptionException>(() => PositionLists.Decode(longer, frequencies, new int[positions.Length]));
        var wide = (byte[])encoded.Clone();
        wide[0] = PositionLists.MaxWidth + 1;
        Assert.Throws<CorruptionException>(() => PositionLists.Decode(wide, frequencies, new int[positions.Length]));
    }
}
