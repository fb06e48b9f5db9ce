using Folio.Indexing.Rql;
using Folio.Indexing.Spatial;

namespace Folio.Indexing.Tests.Rql;

/// <summary>The seeds' spatial functions in the where clause and in order by, and positioned errors for what is not one.</summary>
public sealed class RqlSpatialParseTests
{
    [Fact]
    public void Parse_WithinCircleOfAPoint_ReadsThePathsAndTheCircle()
    {
        var query = RqlParser.Parse("from Companies where spatial.within(spatial.point(Address.Location.Latitude, Address.Location.Longitude), spatial.circle(20, 47.623, -122.3, 'miles'))");

        var spatial = Assert.IsType<RqlSpatial>(query.Where);
        Assert.Equal(SpatialRelation.Within, spatial.Relation);
        Assert.Equal("Address.Location.Latitude", spatial.Field.Source!.Latitude!.Text);
        Assert.Equal("Address.Location.Longitude", spatial.Field.Source.Longitude!.Text);
        var circle = Assert.IsType<RqlCircle>(spatial.Shape);
        Assert.Equal(20L, Assert.IsType<RqlLiteral>(circle.Radius).Value);
        Assert.Equal(-122.3, Assert.IsType<RqlLiteral>(circle.Longitude).Value);
        Assert.Equal("miles", Assert.IsType<RqlLiteral>(circle.Units).Value);
    }

    [Theory]
    [InlineData("spatial.within", SpatialRelation.Within, false)]
    [InlineData("spatial.intersects", SpatialRelation.Intersects, false)]
    [InlineData("spatial.disjoint", SpatialRelation.Disjoint, false)]
    [InlineData("SPATIAL.CONTAINS", SpatialRelation.Intersects, true)]
    public void Parse_EachRelation_OnANamedFieldAndWkt(string function, SpatialRelation relation, bool contains)
    {
        var query = RqlParser.Parse($"from index 'Places' where {function}(Location, spatial.wkt('POLYGON((0 0, 1 0, 1 1, 0 0))')) and Name = 'x'");

        var spatial = Assert.IsType<RqlSpatial>(Assert.IsType<RqlBinary>(query.Where).Left);
        Assert.Equal(relation, spatial.Relation);
        Assert.Equal(contains, spatial.IsContains);
        Assert.Equal("Location", spatial.Field.Named!.Name);
        Assert.Equal("POLYGON((0 0, 1 0, 1 1, 0 0))", Assert.IsType<RqlLiteral>(Assert.IsType<RqlWktShape>(spatial.Shape).Text).Value);
    }

    [Fact]
    public void Parse_OrderBySpatialDistance_IsAnOrderKeyWithItsPointAndDirection()
    {
        var query = RqlParser.Parse("from Companies where spatial.within(spatial.wkt(Geo), spatial.circle($r, $lat, $lng)) order by spatial.distance(spatial.point(Lat, Lng), spatial.point(47.6, -122.3), 5) desc limit 3");

        var order = Assert.Single(query.OrderBy);
        Assert.True(order.Descending);
        Assert.Null(order.Field);
        var distance = order.Distance!;
        Assert.Equal("Lat", distance.Field.Source!.Latitude!.Text);
        Assert.Equal(47.6, Assert.IsType<RqlLiteral>(distance.Latitude).Value);
        Assert.Equal(5L, Assert.IsType<RqlLiteral>(distance.RoundFactor).Value);
        Assert.Equal("Geo", Assert.IsType<RqlSpatial>(query.Where).Field.Source!.Wkt!.Text);
        Assert.False(RqlParser.Parse("from C order by spatial.distance(Location, spatial.point(1, 2))").OrderBy[0].Descending);
    }

    [Theory]
    [InlineData("from C where spatial.near(Location, spatial.circle(1, 2, 3))", "Unknown spatial function")]
    [InlineData("from C where spatial.within(Location, spatial.square(1, 2, 3))", "Expected a shape")]
    [InlineData("from C where spatial.within(Location, 'POLYGON((0 0))')", "Expected a shape")]
    [InlineData("from C where spatial.within(Location spatial.circle(1, 2, 3))", "',' and the shape")]
    [InlineData("from C where spatial.within(spatial.point(Lat), spatial.circle(1, 2, 3))", "longitude path")]
    [InlineData("from C where spatial.within(spatial.circle(1, 2, 3), Location)", "takes a spatial field")]
    [InlineData("from C where spatial.within(Location, spatial.circle(1, 2))", "longitude of spatial.circle")]
    [InlineData("from C order by spatial.distance(Location, 47.6, -122.3)", "measures from spatial.point")]
    public void Parse_MalformedSpatial_ThrowsAPositionedErrorNamingTheProblem(string text, string expected)
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(text));
        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
        Assert.InRange(error.Position, 0, text.Length);
    }

    [Fact]
    public void Parse_EveryPrefixOfASpatialQuery_ParsesOrThrowsAPositionedParseError()
    {
        const string text = "from C where spatial.intersects(spatial.point(A.Lat, A.Lng), spatial.circle(10, 1.5, -2, 'km'), 0.025) or spatial.disjoint(L, spatial.wkt($w)) order by spatial.distance(L, spatial.point(1, 2)) desc";
        RqlParser.Parse(text);
        for (var length = 0; length < text.Length; length++)
        {
            try
            {
                RqlParser.Parse(text[..length]);
            }
            catch (RqlParseException e)
            {
                Assert.InRange(e.Position, 0, length);
            }
        }
    }
}
