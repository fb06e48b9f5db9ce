using Folio.Indexing.Spatial;

namespace Folio.Indexing.Rql;

/// <summary>
/// The seeds' spatial functions: <c>spatial.within|intersects|disjoint|contains(field, shape [, distErrorPercent])</c> in the
/// where clause, with a field that is a static index's spatial field, <c>spatial.point(lat, lng)</c> or <c>spatial.wkt(path)</c>,
/// and a shape that is <c>spatial.circle(radius, lat, lng [, units])</c> or <c>spatial.wkt('…')</c>; and
/// <c>order by spatial.distance(field, spatial.point(lat, lng) [, roundFactor]) [asc|desc]</c>.
/// </summary>
public sealed partial class RqlParser
{
    private static bool IsSpatialName(RqlToken token) =>
        token.Kind == RqlTokenKind.Identifier && token.Text.StartsWith("spatial.", StringComparison.OrdinalIgnoreCase);

    private RqlSpatial ParseSpatial()
    {
        var token = Current;
        var name = token.Text.ToLowerInvariant();
        var relation = name switch
        {
            "spatial.within" => SpatialRelation.Within,
            "spatial.intersects" or "spatial.contains" => SpatialRelation.Intersects,
            "spatial.disjoint" => SpatialRelation.Disjoint,
            _ => throw new RqlParseException($"Unknown spatial function '{token.Text}' in the where clause (expected spatial.within, spatial.intersects, spatial.disjoint or spatial.contains)", token.Position),
        };
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var field = ParseSpatialField(token.Text);
        Expect(RqlTokenKind.Comma, $"',' and the shape of {token.Text}() (spatial.circle(…) or spatial.wkt(…))");
        var shape = ParseShape();
        // The seeds' distErrorPercent trades precision for speed in their prefix trees; Folio tests every point exactly.
        if (Take(RqlTokenKind.Comma))
            ParseValue();
        Expect(RqlTokenKind.CloseParen, $"')' to close {token.Text}()");
        return new RqlSpatial(relation, field, shape, token.Position) { IsContains = name == "spatial.contains" };
    }

    private RqlSpatialField ParseSpatialField(string function)
    {
        var token = Current;
        if (token.Kind == RqlTokenKind.Identifier && Peek(1).Kind == RqlTokenKind.OpenParen)
        {
            switch (token.Text.ToLowerInvariant())
            {
                case "spatial.point":
                    _index += 2;
                    var latitude = ParseSpatialPath("spatial.point()");
                    Expect(RqlTokenKind.Comma, "',' and the longitude path of spatial.point()");
                    var longitude = ParseSpatialPath("spatial.point()");
                    Expect(RqlTokenKind.CloseParen, "')' to close spatial.point()");
                    return new RqlSpatialField(null, SpatialSource.Point(latitude, longitude), token.Position);
                case "spatial.wkt":
                    _index += 2;
                    var wkt = ParseSpatialPath("spatial.wkt()");
                    Expect(RqlTokenKind.CloseParen, "')' to close spatial.wkt()");
                    return new RqlSpatialField(null, SpatialSource.FromWkt(wkt), token.Position);
            }
        }
        if (IsSpatialName(token))
            throw Error($"{function}() takes a spatial field, spatial.point(latPath, lngPath) or spatial.wkt(path) first, not {token.Describe()}");
        var field = ParseField();
        if (field.Path is null || field.Aggregate is not null)
            throw new RqlParseException($"{function}() takes a spatial field, not {field}", field.Position);
        return new RqlSpatialField(field, null, token.Position);
    }

    private Definitions.FieldPath ParseSpatialPath(string function)
    {
        var field = ParseField();
        return field.Path is { } path && field.Aggregate is null
            ? path
            : throw new RqlParseException($"{function} takes document paths, not {field}", field.Position);
    }

    private RqlShape ParseShape()
    {
        var token = Current;
        if (token.Kind != RqlTokenKind.Identifier || Peek(1).Kind != RqlTokenKind.OpenParen)
            throw Error($"Expected a shape, spatial.circle(radius, lat, lng) or spatial.wkt('POLYGON((…))'), but found {token.Describe()}");
        switch (token.Text.ToLowerInvariant())
        {
            case "spatial.circle":
                _index += 2;
                var radius = ParseValue();
                Expect(RqlTokenKind.Comma, "',' and the latitude of spatial.circle(radius, lat, lng)");
                var latitude = ParseValue();
                Expect(RqlTokenKind.Comma, "',' and the longitude of spatial.circle(radius, lat, lng)");
                var longitude = ParseValue();
                RqlValue? units = null;
                if (Take(RqlTokenKind.Comma))
                    units = ParseValue();
                Expect(RqlTokenKind.CloseParen, "')' to close spatial.circle()");
                return new RqlCircle(radius, latitude, longitude, units, token.Position);
            case "spatial.wkt":
                _index += 2;
                var text = ParseValue();
                Expect(RqlTokenKind.CloseParen, "')' to close spatial.wkt()");
                return new RqlWktShape(text, token.Position);
            default:
                throw Error($"Expected a shape, spatial.circle(radius, lat, lng) or spatial.wkt('POLYGON((…))'), but found {token.Describe()}");
        }
    }

    /// <summary><c>spatial.distance(field, spatial.point(lat, lng) [, roundFactor]) [asc|desc]</c> as an order by key (ascending by default).</summary>
    private RqlOrder ParseDistanceOrder()
    {
        var token = Current;
        _index += 2;
        var field = ParseSpatialField("spatial.distance");
        Expect(RqlTokenKind.Comma, "',' and spatial.point(lat, lng), the point distances are measured from");
        if (!Current.IsKeyword("spatial.point") || Peek(1).Kind != RqlTokenKind.OpenParen)
            throw Error($"spatial.distance() measures from spatial.point(lat, lng), not {Current.Describe()}");
        _index += 2;
        var latitude = ParseValue();
        Expect(RqlTokenKind.Comma, "',' and the longitude of spatial.point(lat, lng)");
        var longitude = ParseValue();
        Expect(RqlTokenKind.CloseParen, "')' to close spatial.point()");
        RqlValue? round = null;
        if (Take(RqlTokenKind.Comma))
            round = ParseValue();
        Expect(RqlTokenKind.CloseParen, "')' to close spatial.distance()");
        var descending = false;
        if (TakeKeyword("desc") || TakeKeyword("descending"))
            descending = true;
        else if (TakeKeyword("asc") || TakeKeyword("ascending"))
            descending = false;
        return new RqlOrder(null, RqlOrderType.Default, descending) { Distance = new RqlDistance(field, latitude, longitude, round, token.Position) };
    }
}
