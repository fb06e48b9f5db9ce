using Folio.Indexing.Postings;
using static Folio.Indexing.Tests.Postings.PostingsTestData;

namespace Folio.Indexing.Tests.Postings;

public class PostingsCorruptionTests
{
    public static TheoryData<int, bool> Lists() => new()
    {
        { 0, false },
        { 1, true },
        { 100, false },
        { 100, true },
        { 128, false },
        { 300, true },
        { 3000, false },
        { 3000, true },
    };

    [Theory]
    [MemberData(nameof(Lists))]
    public void Decode_EveryTruncation_ThrowsInvalidData(int size, bool withFrequencies)
    {
        var encoded = Encode(size, withFrequencies);

        for (var length = 0; length < encoded.Length; length++)
        {
            var truncated = encoded.AsSpan(0, length).ToArray();
            Assert.Throws<InvalidDataException>(() => DecodeAll(truncated, out _));
            Assert.Throws<InvalidDataException>(() => Iterate(truncated));
        }
    }

    [Theory]
    [MemberData(nameof(Lists))]
    public void Decode_TrailingBytes_ThrowInvalidData(int size, bool withFrequencies)
    {
        var encoded = Encode(size, withFrequencies);
        var extended = encoded.Concat(new byte[] { 0 }).ToArray();

        Assert.Throws<InvalidDataException>(() => DecodeAll(extended, out _));
        Assert.Throws<InvalidDataException>(() => Iterate(extended));
    }

    [Theory]
    [MemberData(nameof(Lists))]
    public void Decode_RandomByteDamage_ThrowsInvalidDataOrYieldsAnIncreasingList(int size, bool withFrequencies)
    {
        var encoded = Encode(size, withFrequencies);
        var random = new Random(size);
        for (var trial = 0; trial < 2000; trial++)
        {
            var damaged = (byte[])encoded.Clone();
            var hits = random.Next(1, 4);
            for (var h = 0; h < hits; h++)
            {
                damaged[random.Next(damaged.Length)] = (byte)random.Next(256);
            }

            CheckDecodesSafely(damaged, random);
        }
    }

    [Fact]
    public void Decode_RandomBytes_ThrowInvalidDataOrYieldAnIncreasingList()
    {
        var random = new Random(5);
        for (var trial = 0; trial < 5000; trial++)
        {
            var bytes = new byte[random.Next(0, 64)];
            random.NextBytes(bytes);
            if (bytes.Length > 0)
            {
                // Make most inputs get past the flags byte.
                bytes[0] = (byte)(bytes[0] & 0b111);
            }

            CheckDecodesSafely(bytes, random);
        }
    }

    [Fact]
    public void Decode_UnknownVersionBits_ThrowInvalidData()
    {
        var encoded = Encode(10, false);
        encoded[0] |= 0x10;

        var error = Assert.Throws<InvalidDataException>(() => PostingsDecoder.GetCount(encoded));
        Assert.Contains("posting list", error.Message);
    }

    private static byte[] Encode(int size, bool withFrequencies)
    {
        var ids = Ids(size, size, PostingsTestData.Gaps.Mixed);
        return withFrequencies ? PostingsEncoder.EncodeToArray(ids, Frequencies(size, 1)) : PostingsEncoder.EncodeToArray(ids);
    }

    /// <summary>Damaged input may still be a valid list (a flipped bit in a gap is just another gap);
    /// what must never happen is any exception other than InvalidDataException, or a list that is
    /// not strictly increasing.</summary>
    private static void CheckDecodesSafely(byte[] bytes, Random random)
    {
        try
        {
            var ids = DecodeAll(bytes, out var frequencies);
            AssertWellFormed(ids);
            Assert.All(frequencies, f => Assert.True(f >= 1));
        }
        catch (InvalidDataException)
        {
        }

        try
        {
            var iterator = new PostingsIterator(bytes);
            var previous = -1L;
            while (random.Next(2) == 0 ? iterator.MoveNext() : iterator.Advance(previous + random.NextInt64(1, 1L << 42)))
            {
                Assert.True(iterator.Current > previous);
                Assert.True(iterator.Frequency >= 1);
                previous = iterator.Current;
            }
        }
        catch (InvalidDataException)
        {
        }
    }

    private static void AssertWellFormed(long[] ids)
    {
        var previous = -1L;
        foreach (var id in ids)
        {
            Assert.True(id > previous, $"{id} after {previous}");
            previous = id;
        }
    }
}
