using Folio.Indexing.Postings;

namespace Folio.Indexing.Tests.Postings;

/// <summary>Seeded random posting lists for the property-style tests.</summary>
public static class PostingsTestData
{
    public enum Gaps
    {
        /// <summary>Log-uniform gaps from 1 to 2^40: every bit width shows up, outliers included.</summary>
        Mixed,

        /// <summary>Consecutive ids: packed blocks of width zero.</summary>
        Consecutive,

        /// <summary>Gaps 1-4, a frequent term.</summary>
        Dense,

        /// <summary>Uniform gaps up to 2^40, a rare term over a huge id space.</summary>
        Sparse,
    }

    public static long[] Ids(int count, int seed, Gaps gaps = Gaps.Mixed, long start = -1)
    {
        var random = new Random(seed);
        var ids = new long[count];
        var previous = start;
        for (var i = 0; i < count; i++)
        {
            long gap = gaps switch
            {
                Gaps.Consecutive => 1,
                Gaps.Dense => random.Next(1, 5),
                Gaps.Sparse => random.NextInt64(1, (1L << 40) + 1),
                _ => 1 + random.NextInt64(0, 1L << random.Next(0, 41)),
            };
            previous += gap;
            ids[i] = previous;
        }

        return ids;
    }

    public static int[] Frequencies(int count, int seed)
    {
        var random = new Random(seed);
        var frequencies = new int[count];
        for (var i = 0; i < count; i++)
        {
            // Mostly 1, as in real text, with the occasional large count.
            var roll = random.Next(10);
            frequencies[i] = roll < 6 ? 1 : roll < 9 ? random.Next(2, 20) : random.Next(20, int.MaxValue);
        }

        return frequencies;
    }

    internal static long[] DecodeAll(byte[] encoded, out int[] frequencies)
    {
        var count = PostingsDecoder.GetCount(encoded);
        var ids = new long[count];
        frequencies = new int[count];
        Assert.Equal(count, PostingsDecoder.Decode(encoded, ids, frequencies));
        return ids;
    }

    internal static (long[] Ids, int[] Frequencies) Iterate(ReadOnlyMemory<byte> encoded)
    {
        var iterator = new PostingsIterator(encoded);
        var ids = new List<long>(iterator.Count);
        var frequencies = new List<int>(iterator.Count);
        while (iterator.MoveNext())
        {
            ids.Add(iterator.Current);
            frequencies.Add(iterator.Frequency);
        }

        return (ids.ToArray(), frequencies.ToArray());
    }
}
