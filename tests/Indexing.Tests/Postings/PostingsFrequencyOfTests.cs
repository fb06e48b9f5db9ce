using Folio.Indexing.Postings;
using static Folio.Indexing.Tests.Postings.PostingsTestData;

namespace Folio.Indexing.Tests.Postings;

/// <summary><see cref="PostingsDecoder.FrequencyOf"/>: one id's frequency from the block (or stream) that could hold it.</summary>
public class PostingsFrequencyOfTests
{
    public static TheoryData<int, Gaps> Lists()
    {
        var data = new TheoryData<int, Gaps>();
        foreach (var size in new[] { 1, 4, 127, 128, 129, 1000, 4096 })
        {
            data.Add(size, Gaps.Mixed);
            data.Add(size, Gaps.Dense);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Lists))]
    public void FrequencyOf_FindsEveryId_AndNoIdBetweenOrAround(int size, Gaps gaps)
    {
        var ids = Ids(size, size, gaps);
        var frequencies = Frequencies(size, size + 1);
        var withFrequencies = PostingsEncoder.EncodeToArray(ids, frequencies);
        var without = PostingsEncoder.EncodeToArray(ids);
        var present = new HashSet<long>(ids);
        for (var i = 0; i < ids.Length; i++)
        {
            Assert.Equal(frequencies[i], PostingsDecoder.FrequencyOf(withFrequencies, ids[i]));
            Assert.Equal(1, PostingsDecoder.FrequencyOf(without, ids[i]));
            if (!present.Contains(ids[i] + 1))
                Assert.Equal(0, PostingsDecoder.FrequencyOf(withFrequencies, ids[i] + 1));
        }
        if (ids[0] > 0)
            Assert.Equal(0, PostingsDecoder.FrequencyOf(withFrequencies, ids[0] - 1));
        Assert.Equal(0, PostingsDecoder.FrequencyOf(withFrequencies, ids[^1] + 1));
        Assert.Equal(0, PostingsDecoder.FrequencyOf(withFrequencies, long.MaxValue));
    }
}
