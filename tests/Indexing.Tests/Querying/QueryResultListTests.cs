using System.Text;
using Folio.Indexing.Querying;

namespace Folio.Indexing.Tests.Querying;

public class QueryResultListTests
{
    [Fact]
    public void Add_KeepsEveryResultWhole_WhenTheBufferGrowsManyTimes()
    {
        using var list = new QueryResultList();
        var expected = new List<string>();
        for (var i = 0; i < 300; i++)
        {
            var json = $"{{\"n\":{i},\"pad\":\"{new string('x', i * 7 % 500)}\"}}";
            expected.Add(json);
            list.Add(Encoding.UTF8.GetBytes(json));
        }

        Assert.Equal(300, list.Count);
        for (var i = 0; i < expected.Count; i++)
            Assert.Equal(expected[i], Encoding.UTF8.GetString(list[i].Span));
        var walked = new List<string>();
        foreach (var item in list)
            walked.Add(Encoding.UTF8.GetString(item.Span));
        Assert.Equal(expected, walked);
    }

    [Fact]
    public void Indexer_Throws_WhenPastTheEnd()
    {
        using var list = new QueryResultList();
        list.Add("1"u8);
        Assert.Throws<ArgumentOutOfRangeException>(() => list[1]);
        Assert.Throws<ArgumentOutOfRangeException>(() => list[-1]);
    }

    [Fact]
    public void Add_HoldsEmptyAndLargeValues_NextToEachOther()
    {
        using var list = new QueryResultList();
        var large = Encoding.UTF8.GetBytes("\"" + new string('y', 100_000) + "\"");
        list.Add([]);
        list.Add(large);
        list.Add("null"u8);
        Assert.Equal(0, list[0].Length);
        Assert.True(list[1].Span.SequenceEqual(large));
        Assert.Equal("null", Encoding.UTF8.GetString(list[2].Span));
    }

    [Fact]
    public void Dispose_EmptiesTheList()
    {
        var list = new QueryResultList();
        list.Add("[1,2]"u8);
        list.Dispose();
        Assert.Empty(list);
        list.Dispose();
    }
}
