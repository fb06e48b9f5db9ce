using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Rql;

/// <summary>
/// The seeds' operators and clauses parse into what the runner needs, and what cannot be combined is refused with the
/// position of the part at fault.
/// </summary>
public sealed class RqlOperatorParseTests
{
    [Fact]
    public void Parse_Exact_WrapsTheConditionWithItsPosition()
    {
        var query = RqlParser.Parse("from Companies where exact(Name = 'Ernst Handel' or Name in ('A', 'B'))");

        var exact = Assert.IsType<RqlExact>(query.Where);
        Assert.Equal(21, exact.Position);
        var or = Assert.IsType<RqlBinary>(exact.Inner);
        Assert.Equal("Ernst Handel", Assert.IsType<RqlLiteral>(Assert.IsType<RqlComparison>(or.Left).Value).Value);
        Assert.Equal(2, Assert.IsType<RqlIn>(or.Right).Values.Count);
    }

    [Fact]
    public void Parse_RegexAndAllIn_AreAFunctionAndAnAllIn()
    {
        var query = RqlParser.Parse("from Companies where regex(Name, '^[NA]') and Tags all in ('a', 'b', $c)");

        var and = Assert.IsType<RqlBinary>(query.Where);
        var regex = Assert.IsType<RqlFunction>(and.Left);
        Assert.Equal("regex", regex.Name);
        Assert.Equal("^[NA]", Assert.IsType<RqlLiteral>(regex.Argument).Value);
        var allIn = Assert.IsType<RqlAllIn>(and.Right);
        Assert.Equal("Tags", allIn.Field.Name);
        Assert.Equal(3, allIn.Values.Count);
    }

    [Theory]
    [InlineData("search(Notes, 'fluent french', and)", true)]
    [InlineData("search(Notes, 'fluent french', OR)", false)]
    [InlineData("search(Notes, 'fluent french')", false)]
    public void Parse_SearchOperator_SaysWhetherEveryWordIsNeeded(string condition, bool requireAll)
    {
        var search = Assert.IsType<RqlFunction>(RqlParser.Parse($"from Companies where {condition}").Where);

        Assert.Equal(requireAll, search.RequireAll);
    }

    [Fact]
    public void Parse_BareTrue_IsTrue_ButTrueBeforeAnOperatorIsAField()
    {
        var and = Assert.IsType<RqlBinary>(RqlParser.Parse("from Companies where true and not exists(Fax)").Where);
        Assert.IsType<RqlTrue>(and.Left);
        Assert.IsType<RqlFunction>(Assert.IsType<RqlNot>(and.Right).Inner);

        var field = Assert.IsType<RqlComparison>(RqlParser.Parse("from Companies where true = 1").Where);
        Assert.Equal("true", field.Field.Name);
    }

    [Fact]
    public void Parse_SelectDistinct_IsDistinct_ButAFieldNamedDistinctIsAField()
    {
        var distinct = RqlParser.Parse("from Companies select distinct Country, City");
        Assert.True(distinct.Distinct);
        Assert.Equal(["Country", "City"], distinct.Select.Select(s => s.Alias));

        var field = RqlParser.Parse("from Companies select distinct, Name");
        Assert.False(field.Distinct);
        Assert.Equal(["distinct", "Name"], field.Select.Select(s => s.Alias));
    }

    [Fact]
    public void Parse_RandomAndAlphanumeric_AreOrderTypes()
    {
        var seeded = Assert.Single(RqlParser.Parse("from Companies order by random('x')").OrderBy);
        Assert.Equal(RqlOrderType.Random, seeded.Type);
        Assert.Equal("x", Assert.IsType<RqlLiteral>(seeded.Seed).Value);
        Assert.Null(Assert.Single(RqlParser.Parse("from Companies order by random()").OrderBy).Seed);

        var natural = RqlParser.Parse("from Companies order by Code as alphanumeric desc, Name").OrderBy;
        Assert.Equal(RqlOrderType.AlphaNumeric, natural[0].Type);
        Assert.True(natural[0].Descending);
        Assert.Equal(RqlOrderType.Default, natural[1].Type);
    }

    [Theory]
    [InlineData("from Companies include timings()", true, false)]
    [InlineData("from Companies include explanations()", false, true)]
    [InlineData("from Companies where search(Name, 'x') include Company, timings(), explanations() limit 2", true, true)]
    [InlineData("from Companies limit 2 include explanations(), timings()", true, true)]
    public void Parse_IncludeTimingsAndExplanations_AreFlags(string rql, bool timings, bool explanations)
    {
        var query = RqlParser.Parse(rql);

        Assert.Equal(timings, query.IncludeTimings);
        Assert.Equal(explanations, query.IncludeExplanations);
    }

    [Theory]
    [InlineData("from Orders group by Company select distinct Company", 36)]
    [InlineData("from Orders select distinct facet(Company)", 19)]
    [InlineData("from Orders order by Name, random()", 27)]
    [InlineData("from Orders order by Code as alphanumeric, score()", 43)]
    [InlineData("from Orders order by Code as natural", 29)]
    [InlineData("from Orders where search(Notes, 'a b', maybe)", 39)]
    [InlineData("from Orders where exact(search(Notes, 'a'))", 24)]
    [InlineData("from Orders where exact(Name = 'a'", 34)]
    [InlineData("from Orders where Tags all ('a')", 23)]
    [InlineData("from Orders include timings(1)", 28)]
    [InlineData("from Orders order by random() as long", 30)]
    public void Parse_WhatCannotBeCombined_IsRefusedAtThePosition(string rql, int position)
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(rql));

        Assert.Equal(position, error.Position);
    }

    [Fact]
    public void Parse_GroupByArray_IsOneGroupOfThePathsValues()
    {
        var query = RqlParser.Parse("from Orders group by array(Lines[].Product), Company select key() as Products, count()");
        Assert.Equal(RqlField.ArrayFunction, query.GroupBy[0].Aggregate);
        Assert.Equal("array(Lines[].Product)", query.GroupBy[0].ToString());
        Assert.Null(query.GroupBy[1].Aggregate);
        Assert.Throws<RqlParseException>(() => RqlParser.Parse("from Orders group by array(count()) select count()"));
    }
}
