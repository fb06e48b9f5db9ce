using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// The bit layout of a block of points (<see cref="PointBlock"/>): blocks of every shape read back as written,
/// their planned length is their length, and a damaged block fails as corruption instead of reading wrong points.
/// </summary>
public class PointBlockTests
{
    private static Point[] RoundTrip(Point[] points)
    {
        var length = PointBlock.EncodedLength(points);
        var value = new byte[length];
        Assert.Equal(length, PointBlock.Encode(points, PointBlock.CodingOf(points), value));
        var key = new byte[PointBlock.KeySize];
        PointBlock.WriteKey(key, points[0]);
        var decoded = Array.Empty<Point>();
        var count = PointBlock.Decode(key, value, ref decoded);
        return decoded[..count];
    }

    public static TheoryData<string> Shapes() => ["one point", "same value", "id zero", "wide ids", "huge gaps", "extremes", "escaped", "timestamps", "prices"];

    private static Point[] Shape(string shape, Random random) => shape switch
    {
        "one point" => [new Point(7, 3)],
        "same value" => Enumerable.Range(0, 500).Select(i => new Point(42, i * 3 + 1)).ToArray(),
        "id zero" => Enumerable.Range(0, 300).Select(i => new Point((ulong)i * 5, 0)).ToArray(),
        "wide ids" => Enumerable.Range(0, 300).Select(i => new Point((ulong)i, long.MaxValue - random.Next(1_000_000))).ToArray(),
        "huge gaps" => Enumerable.Range(0, 64).Select(i => new Point(((ulong)i << 58) | (uint)random.Next(1000), i)).ToArray(),
        "extremes" => [new Point(0, 0), new Point(0, long.MaxValue), new Point(ulong.MaxValue - 1, 5), new Point(ulong.MaxValue, 0), new Point(ulong.MaxValue, long.MaxValue)],
        // Increases of 1 and one of 10,000: the mean puts k at 5, and 9,999 >> 5 is past the escape run.
        "escaped" => Enumerable.Range(0, 201).Select(i => new Point((ulong)(i < 100 ? i : i + 9_999), i)).ToArray(),
        "timestamps" => Sorted(Enumerable.Range(0, 5_000).Select(i => new Point(1_700_000_000UL + (ulong)random.Next(31_536_000), random.Next(1_000_000)))),
        "prices" => Sorted(Enumerable.Range(0, 5_000).Select(i => new Point(4_600_000_000_000_000_000UL + (ulong)random.Next(300) * 35_184_372_088_832UL, random.Next(1_000_000)))),
        _ => throw new ArgumentOutOfRangeException(nameof(shape)),
    };

    private static Point[] Sorted(IEnumerable<Point> points) => points.Distinct().Order().ToArray();

    [Theory]
    [MemberData(nameof(Shapes))]
    public void Encode_ThenDecode_ReturnsThePoints(string shape)
    {
        var points = Shape(shape, new Random(shape.Length));
        Assert.Equal(points, RoundTrip(points));
    }

    [Fact]
    public void Encode_RandomBlocks_RoundTripWithTheirPlannedLength()
    {
        var random = new Random(11);
        for (var round = 0; round < 300; round++)
        {
            var spread = 1UL << random.Next(1, 64);
            var idLimit = 1L << random.Next(1, 63);
            var points = Sorted(Enumerable.Range(0, random.Next(1, 400)).Select(_ =>
                new Point((ulong)random.NextInt64() % spread * (ulong)random.Next(1, 3), random.NextInt64(idLimit))));
            Assert.Equal(points, RoundTrip(points));
        }
    }

    [Theory]
    [InlineData("timestamps")]
    [InlineData("prices")]
    public void Encode_SpreadValues_TakeFewerBytesThanVarints(string shape)
    {
        var points = Shape(shape, new Random(3));
        // Before the bit layout, a point was two varints: the increase, then the id, or for a repeated value the
        // id's increase over the previous id less one.
        long varints = 0;
        for (var i = 1; i < points.Length; i++)
        {
            var increase = points[i].Value - points[i - 1].Value;
            varints += VarintLength(increase) + VarintLength(increase == 0 ? (ulong)(points[i].Id - points[i - 1].Id - 1) : (ulong)points[i].Id);
        }
        Assert.InRange(PointBlock.EncodedLength(points), 1, varints * 0.9);
    }

    private static int VarintLength(ulong value) => value < 0x80 ? 1 : 1 + VarintLength(value >> 7);

    [Fact]
    public void Reader_TruncatedAtEveryLength_FailsAsCorruption()
    {
        var points = Shape("timestamps", new Random(5))[..200];
        var value = new byte[PointBlock.EncodedLength(points)];
        PointBlock.Encode(points, PointBlock.CodingOf(points), value);
        var key = new byte[PointBlock.KeySize];
        PointBlock.WriteKey(key, points[0]);
        for (var length = 0; length < value.Length; length++)
        {
            var cut = value[..length];
            Assert.Throws<CorruptionException>(() =>
            {
                var decoded = Array.Empty<Point>();
                PointBlock.Decode(key, cut, ref decoded);
            });
        }
    }

    [Fact]
    public void Reader_TrailingBytes_FailAsCorruption()
    {
        var points = Shape("same value", new Random(1));
        var value = new byte[PointBlock.EncodedLength(points) + 1];
        PointBlock.Encode(points, PointBlock.CodingOf(points), value);
        var key = new byte[PointBlock.KeySize];
        PointBlock.WriteKey(key, points[0]);
        Assert.Throws<CorruptionException>(() =>
        {
            var decoded = Array.Empty<Point>();
            PointBlock.Decode(key, value, ref decoded);
        });
    }

    [Fact]
    public void Reader_IdsOfOneValueOutOfOrder_FailAsCorruption()
    {
        // Written by hand: one more point (count 1), k 0, W 4, then a point of the same value (bit 0) with id 2 below the key's 9.
        var key = new byte[PointBlock.KeySize];
        PointBlock.WriteKey(key, new Point(5, 9));
        byte[] value = [1, 0, 4, 0b0000_0100];
        Assert.Throws<CorruptionException>(() =>
        {
            var decoded = Array.Empty<Point>();
            PointBlock.Decode(key, value, ref decoded);
        });
    }

    [Fact]
    public void BitSpan_ValuesOfEveryWidth_ReadBackAsWritten()
    {
        var random = new Random(2);
        var widths = Enumerable.Range(0, 2_000).Select(_ => random.Next(0, 65)).ToArray();
        var values = widths.Select(w => w == 0 ? 0UL : (ulong)random.NextInt64() << 1 >> (64 - w)).ToArray();
        var buffer = new byte[widths.Sum() / 8 + 8];
        var writer = new BitSpanWriter(buffer);
        for (var i = 0; i < widths.Length; i++)
            writer.Write(values[i], widths[i]);
        var length = writer.Finish();
        Assert.Equal((widths.Sum() + 7) / 8, length);
        var reader = new BitSpanReader(buffer.AsSpan(0, length));
        for (var i = 0; i < widths.Length; i++)
            Assert.Equal(values[i], reader.Read(widths[i]));
        Assert.True(reader.AtEnd);
    }

    public static TheoryData<byte[]> DamagedValues() =>
    [
        // A Rice parameter past 63.
        [1, 64, 0, 0],
        // An id width past 63.
        [1, 0, 64, 0],
        // k 63 and a quotient of 2: an increase past 64 bits.
        [1, 63, 0, 0b0000_0111, 0, 0, 0, 0, 0, 0, 0, 0],
        // An escaped increase of 2^64 - 1 over the key's value wraps around.
        [1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
        // More points than bits.
        [100, 0, 0, 0],
    ];

    [Theory]
    [MemberData(nameof(DamagedValues))]
    public void Reader_DamagedValue_FailsAsCorruption(byte[] value)
    {
        var key = new byte[PointBlock.KeySize];
        PointBlock.WriteKey(key, new Point(5, 9));
        Assert.Throws<CorruptionException>(() =>
        {
            var decoded = Array.Empty<Point>();
            PointBlock.Decode(key, value, ref decoded);
        });
    }
}
