using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Rql;

/// <summary>The arguments of <c>facet()</c>: the field or ranges, aggregations, an options parameter, a name, or a stored setup.</summary>
public sealed class RqlFacetParseTests
{
    [Fact]
    public void Parse_ReadsAggregationsOptionsAndAName_ForATermFacet()
    {
        var facet = RqlParser.Parse("from Products select facet(Brand, sum(Price), MIN('Unit Price') as Cheapest, average(Lines[].Qty), $opts) as Brands").Facets.Single();
        Assert.Equal("Brand", facet.Field.Name);
        Assert.Empty(facet.Ranges);
        Assert.Equal("Brands", facet.Name);
        Assert.Equal("opts", Assert.IsType<RqlParameter>(facet.Options).Name);
        Assert.Equal(
            [(RqlFacetAggregationOp.Sum, "Price"), (RqlFacetAggregationOp.Min, "Cheapest"), (RqlFacetAggregationOp.Average, "Lines[].Qty")],
            facet.Aggregations.Select(a => (a.Op, a.Name)));
        Assert.Equal("Unit Price", facet.Aggregations[1].Field.Name);
    }

    [Fact]
    public void Parse_ReadsAggregationsAfterRanges_ForARangeFacet()
    {
        var facet = RqlParser.Parse("from Products select facet(Price < 10, Price between 10 and 20, max(Stock))").Facets.Single();
        Assert.Equal(["Price < 10", "Price between 10 and 20"], facet.Ranges.Select(r => r.Text));
        Assert.Equal(RqlFacetAggregationOp.Max, facet.Aggregations.Single().Op);
        Assert.Null(facet.Options);
    }

    [Fact]
    public void Parse_ReadsTwoBoundsJoinedByAnd_AsOneRange()
    {
        var facet = RqlParser.Parse("from Orders select facet(Total < $p0, Total >= $p1 and Total < $p2, Total <= 500 and Total > 100, sum(Total))").Facets.Single();
        Assert.Equal(["Total < $p0", "Total >= $p1 and Total < $p2", "Total <= 500 and Total > 100"], facet.Ranges.Select(r => r.Text));
        var between = facet.Ranges[1];
        Assert.Equal(("p1", true, "p2", false), (((RqlParameter)between.Lower!).Name, between.LowerInclusive, ((RqlParameter)between.Upper!).Name, between.UpperInclusive));
        var reversed = facet.Ranges[2];
        Assert.Equal((100L, false, 500L, true), ((long)((RqlLiteral)reversed.Lower!).Value!, reversed.LowerInclusive, (long)((RqlLiteral)reversed.Upper!).Value!, reversed.UpperInclusive));
    }

    [Theory]
    [InlineData("from Orders select facet(Total > 1 and Total > 2)")]
    [InlineData("from Orders select facet(Total > 1 and Price < 2)")]
    [InlineData("from Orders select facet(Total > 1 and Total)")]
    public void Parse_RefusesAndRanges_WithoutOneBoundEachWayOnTheField(string rql) =>
        Assert.Throws<RqlParseException>(() => RqlParser.Parse(rql));

    [Fact]
    public void Parse_ReadsAStoredSetup_ByIdOrParameter()
    {
        var facets = RqlParser.Parse("from Products select facet(id('facets/ProductSearch')), facet(id($s))").Facets;
        Assert.Equal("facets/ProductSearch", Assert.IsType<RqlLiteral>(facets[0].SetupId).Value);
        Assert.Equal("s", Assert.IsType<RqlParameter>(facets[1].SetupId).Name);
        // id() alone is still the document id as a field.
        Assert.True(RqlParser.Parse("from Products select facet(id())").Facets.Single().Field.IsId);
    }

    [Theory]
    [InlineData("from P select facet(sum(Price))", "starts with the field")]
    [InlineData("from P select facet($o)", "starts with the field")]
    [InlineData("from P select facet(Brand, Color)", "Expected an aggregation")]
    [InlineData("from P select facet(Brand, $o, $p)", "one $parameter")]
    [InlineData("from P select facet(Brand, sum(Price), Price < 3)", "Expected an aggregation")]
    [InlineData("from P select facet(Price < 3, Price)", "Expected a range")]
    [InlineData("from P select facet(Brand, sum(id()))", "not id()")]
    [InlineData("from P select facet(id('x')) as y", "DisplayFieldName")]
    [InlineData("from P select facet(id('x'), Brand)", "a facet setup takes nothing more")]
    public void Parse_RefusesMisplacedFacetArguments(string query, string message)
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(query));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ParseFacetRanges_ReadsAStoredSetupsRanges()
    {
        var facet = RqlParser.ParseFacetRanges(["Price < 200", "Price between 200 and 600", "Price >= 600"]);
        Assert.Equal("Price", facet.Field.Name);
        Assert.Equal(["Price < 200", "Price between 200 and 600", "Price >= 600"], facet.Ranges.Select(r => r.Text));
        Assert.Throws<RqlParseException>(() => RqlParser.ParseFacetRanges(["Price < 200", "Stock > 1"]));
        Assert.Throws<RqlParseException>(() => RqlParser.ParseFacetRanges([]));
    }
}
