using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>The head of a front-coded key (<see cref="FrontCoding"/>): every pair of lengths round-trips in the bytes it says, and heads no key has are corruption.</summary>
public class FrontCodingTests
{
    public static TheoryData<int, int> Pairs()
    {
        var data = new TheoryData<int, int>();
        int[] large = [127, 128, 1_022];
        for (var shared = 0; shared <= 20; shared++)
        {
            for (var suffix = 0; suffix <= 20; suffix++)
                data.Add(shared, suffix);
            foreach (var value in large)
            {
                data.Add(shared, value);
                data.Add(value, shared);
            }
        }
        return data;
    }

    [Theory]
    [MemberData(nameof(Pairs))]
    public void Write_ThenRead_GivesBackBothLengths_InTheBytesLengthSays(int shared, int suffix)
    {
        var output = new List<byte> { 0x5A };
        FrontCoding.Write(output, shared, suffix);
        output.Add(0xA5);
        Assert.Equal(FrontCoding.Length(shared, suffix), output.Count - 2);
        var position = 1;
        FrontCoding.Read(output.ToArray(), ref position, out var readShared, out var readSuffix);
        Assert.Equal((shared, suffix), (readShared, readSuffix));
        Assert.Equal(output.Count - 1, position);
        // Up to 14 shared and 15 new bytes take one byte.
        Assert.Equal(shared <= 14 && suffix <= 15, FrontCoding.Length(shared, suffix) == 1);
    }

    [Theory]
    [InlineData(new byte[] { 0xF1, 0, 0 })]
    [InlineData(new byte[] { 0xFF, 0, 0 })]
    [InlineData(new byte[] { 0xF0, 0x80 })]
    [InlineData(new byte[] { 0xF0, 1 })]
    [InlineData(new byte[0])]
    public void Read_ThrowsCorruption_ForAHeadNoKeyHas(byte[] data)
    {
        Assert.Throws<CorruptionException>(() =>
        {
            var position = 0;
            FrontCoding.Read(data, ref position, out _, out _);
        });
    }
}
