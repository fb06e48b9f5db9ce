using Folio.Indexing.Querying;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Querying;

public class ParsedQueryCacheTests
{
    [Fact]
    public void Parse_ReturnsTheSameTree_WhenTheTextRepeats()
    {
        var cache = new ParsedQueryCache();
        var first = cache.Parse("from Orders where Customer = $c");
        Assert.Same(first, cache.Parse("from Orders where Customer = $c"));
        Assert.NotSame(first, cache.Parse("from Orders where Customer = $d"));
    }

    [Fact]
    public void Parse_ThrowsEveryTime_WhenTheTextDoesNotParse()
    {
        var cache = new ParsedQueryCache();
        Assert.Throws<RqlParseException>(() => cache.Parse("from Orders where"));
        Assert.Throws<RqlParseException>(() => cache.Parse("from Orders where"));
    }

    [Fact]
    public void Parse_StillAnswersCorrectly_WhenMoreTextsThanTheCapacityArrive()
    {
        var cache = new ParsedQueryCache();
        for (var i = 0; i < ParsedQueryCache.Capacity * 2 + 10; i++)
        {
            var query = cache.Parse($"from Orders where Number = {i}");
            var comparison = Assert.IsType<RqlComparison>(query.Where);
            Assert.Equal("Number", comparison.Field.Name);
            Assert.Equal(i, Convert.ToInt64(Assert.IsType<RqlLiteral>(comparison.Value).Value, System.Globalization.CultureInfo.InvariantCulture));
        }
    }
}
