using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Indexing.Spatial;
using Folio.Storage;
using NetTopologySuite.IO;

namespace Folio.Indexing.Tests.Spatial;

/// <summary>
/// Spatial queries on both engines against an oracle written here (haversine for circles, NetTopologySuite's own
/// predicates for polygons), over random points that crowd the antimeridian and the poles.
/// </summary>
public sealed class SpatialEngineTests : IDisposable
{
    private const string Field = "Location";
    private const double EarthKm = 6371.0087714;
    private static readonly IndexSchema Schema = new IndexSchema().Add(Field, new FieldOptions(FieldKind.Exact, CaseSensitive: true));
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "folio-spatial-" + Guid.NewGuid().ToString("N"));
    private readonly Dictionary<string, List<(double Lat, double Lng)>> _points = [];

    public void Dispose()
    {
        if (Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    public static TheoryData<string> Engines => ["Folio", "Lucene"];

    [Theory]
    [MemberData(nameof(Engines))]
    public void Circle_FindsExactlyThePointsWithinTheRadius_AroundTheAntimeridianAndPoles(string engine)
    {
        var random = new Random(29);
        using var index = Build(engine, random);
        using var searcher = index.OpenSearcher();
        var circles = new List<(double Radius, double Lat, double Lng)>
        {
            (500, 0, 179.9), (500, 10, -179.95), (800, 89.5, 0), (800, -89.9, 120), (3000, 88, -60), (20, 47.623, -122.3),
            (20000, 0, 0), (0.001, 0, 0), (1500, -45, 180), (1500, 45, -180),
        };
        for (var i = 0; i < 60; i++)
            circles.Add((Math.Pow(10, random.NextDouble() * 4), random.NextDouble() * 180 - 90, random.NextDouble() * 360 - 180));
        foreach (var (radius, lat, lng) in circles)
        {
            var expected = Expected((pLat, pLng) => Haversine(lat, lng, pLat, pLng) <= radius, (pLat, pLng) => Math.Abs(Haversine(lat, lng, pLat, pLng) - radius) < 1e-6);
            var found = Keys(searcher, new SpatialQuery(Field, new CircleShape(radius, lat, lng, SpatialUnits.Kilometers)));
            AssertSame(expected, found, $"circle {radius} km around ({lat}, {lng})");
        }
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public void Circle_InMiles_IsTheSameCircleInKilometres(string engine)
    {
        using var index = Build(engine, new Random(7));
        using var searcher = index.OpenSearcher();
        var miles = Keys(searcher, new SpatialQuery(Field, new CircleShape(1000, 40, -100, SpatialUnits.Miles)));
        var kilometres = Keys(searcher, new SpatialQuery(Field, new CircleShape(1609.344, 40, -100, SpatialUnits.Kilometers)));
        Assert.NotEmpty(miles);
        Assert.Equal(kilometres, miles);
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public void Polygon_FindsThePointsNetTopologySuiteCovers(string engine)
    {
        var random = new Random(11);
        using var index = Build(engine, random);
        using var searcher = index.OpenSearcher();
        var shapes = new List<string>
        {
            "POLYGON((-10 -10, 30 -10, 30 40, -10 40, -10 -10))",
            "POLYGON((170 -20, 180 -20, 180 20, 170 20, 170 -20))",
            "POLYGON((-180 80, 180 80, 180 90, -180 90, -180 80))",
            "POLYGON((0 0, 40 0, 40 40, 20 10, 0 40, 0 0))",
            "MULTIPOLYGON(((-120 30, -100 30, -100 50, -120 50, -120 30)), ((100 -40, 140 -40, 140 -10, 100 -10, 100 -40)))",
            "POLYGON((-60 -60, 60 -60, 60 60, -60 60, -60 -60), (-20 -20, 20 -20, 20 20, -20 20, -20 -20))",
        };
        var reader = new WKTReader();
        foreach (var wkt in shapes)
        {
            var geometry = reader.Read(wkt);
            var expected = Expected((lat, lng) => geometry.Covers(new NetTopologySuite.Geometries.Point(lng, lat)), (_, _) => false);
            var found = Keys(searcher, new SpatialQuery(Field, PolygonShape.Parse(wkt)));
            AssertSame(expected, found, wkt);
        }
        var envelope = Keys(searcher, new SpatialQuery(Field, PolygonShape.Parse("ENVELOPE(-10, 30, 40, -10)")));
        Assert.Equal(Keys(searcher, new SpatialQuery(Field, PolygonShape.Parse(shapes[0]))), envelope);
    }

    [Theory]
    [InlineData("POLYGON((0 0, 10 0, 10 10))")]
    [InlineData("POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))")]
    [InlineData("POINT(1 2)")]
    [InlineData("POLYGON((0 0, 200 0, 200 10, 0 10, 0 0))")]
    [InlineData("POLYGON((0 0, 10 0, 10 95, 0 10, 0 0))")]
    [InlineData("not wkt")]
    [InlineData("ENVELOPE(10, 0, 5, 1)")]
    public void Parse_RefusesWhatIsNoValidPolygonOnTheEarth(string wkt)
    {
        var error = Assert.Throws<ArgumentException>(() => PolygonShape.Parse(wkt));
        Assert.False(string.IsNullOrWhiteSpace(error.Message));
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public void CircleWkt_IsTheCircleInKilometres_LongitudeFirst(string engine)
    {
        using var index = Build(engine, new Random(7));
        using var searcher = index.OpenSearcher();
        Assert.True(CircleShape.TryParseWkt("Circle(-100 40 d=1609.344)", out var circle));
        Assert.Equal(40, circle.Latitude);
        Assert.Equal(-100, circle.Longitude);
        var kilometres = Keys(searcher, new SpatialQuery(Field, new CircleShape(1609.344, 40, -100, SpatialUnits.Kilometers)));
        Assert.NotEmpty(kilometres);
        Assert.Equal(kilometres, Keys(searcher, new SpatialQuery(Field, circle)));
        Assert.False(CircleShape.TryParseWkt("POLYGON((0 0, 10 0, 10 10, 0 0))", out _));
        Assert.False(CircleShape.TryParseWkt("CIRCLE(1 2)", out _));
        Assert.Throws<ArgumentException>(() => CircleShape.TryParseWkt("CIRCLE(1 95 d=10)", out _));
    }

    [Theory]
    [InlineData(double.PositiveInfinity, 0, 0)]
    [InlineData(-1, 0, 0)]
    [InlineData(10, 91, 0)]
    [InlineData(10, 0, -181)]
    [InlineData(double.NaN, 0, 0)]
    public void Circle_RefusesABadRadiusOrCentre(double radius, double lat, double lng) =>
        Assert.Throws<ArgumentException>(() => new CircleShape(radius, lat, lng, SpatialUnits.Kilometers));

    [Fact]
    public void Circle_OfRadiusZero_IsAccepted() =>
        Assert.Equal(0, new CircleShape(0, 10, 10, SpatialUnits.Kilometers).RadiusKm);

    [Fact]
    public void Term_KeepsThePointExactly_AndSortsByCell()
    {
        var random = new Random(3);
        for (var i = 0; i < 1000; i++)
        {
            var lat = random.NextDouble() * 180 - 90;
            var lng = random.NextDouble() * 360 - 180;
            var term = SpatialTerm.Encode(lat, lng);
            Assert.True(SpatialTerm.TryDecode(term, out var decodedLat, out var decodedLng));
            Assert.Equal(lat, decodedLat);
            Assert.Equal(lng, decodedLng);
            Assert.Equal(term.ToLowerInvariant(), term);
        }
        Assert.True(string.CompareOrdinal(SpatialTerm.Encode(-90, -180), SpatialTerm.Encode(90, 180)) < 0);
    }

    private IEngineIndex Build(string engine, Random random)
    {
        var index = SearchEngines.Get(engine).Open(StorageOptions.ForPath(_directory), Schema);
        using var batch = index.BeginBatch();
        for (var i = 0; i < 4000; i++)
        {
            var key = "p/" + i;
            var entry = new IndexEntry(key);
            var points = new List<(double, double)>();
            var count = i % 10 == 0 ? 0 : i % 7 == 0 ? 2 : 1;
            for (var k = 0; k < count; k++)
            {
                var (lat, lng) = RandomPoint(random, i);
                points.Add((lat, lng));
                entry.Add(Field, SpatialTerm.Encode(lat, lng));
            }
            _points[key] = points;
            batch.Add(entry);
        }
        batch.Commit(1);
        return index;
    }

    private static (double Lat, double Lng) RandomPoint(Random random, int i) => (i % 4) switch
    {
        // Near the antimeridian, near a pole, exactly on the edges of the grid, anywhere.
        0 => (random.NextDouble() * 180 - 90, random.Next(2) == 0 ? 180 - random.NextDouble() * 2 : -180 + random.NextDouble() * 2),
        1 => (random.Next(2) == 0 ? 90 - random.NextDouble() * 3 : -90 + random.NextDouble() * 3, random.NextDouble() * 360 - 180),
        2 => (random.Next(-2, 3) * 45.0, random.Next(-4, 5) * 45.0),
        _ => (Math.Asin(random.NextDouble() * 2 - 1) * 180 / Math.PI, random.NextDouble() * 360 - 180),
    };

    private (SortedSet<string> Sure, SortedSet<string> Edge) Expected(Func<double, double, bool> inside, Func<double, double, bool> onEdge)
    {
        var sure = new SortedSet<string>(StringComparer.Ordinal);
        var edge = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var (key, points) in _points)
        {
            if (points.Any(p => inside(p.Lat, p.Lng) && !onEdge(p.Lat, p.Lng)))
                sure.Add(key);
            else if (points.Any(p => onEdge(p.Lat, p.Lng)))
                edge.Add(key);
        }
        return (sure, edge);
    }

    private static void AssertSame((SortedSet<string> Sure, SortedSet<string> Edge) expected, SortedSet<string> found, string what)
    {
        var missing = expected.Sure.Except(found).ToList();
        var extra = found.Except(expected.Sure).Except(expected.Edge).ToList();
        Assert.True(missing.Count == 0 && extra.Count == 0, $"{what}: missing {string.Join(",", missing.Take(5))} ({missing.Count}), extra {string.Join(",", extra.Take(5))} ({extra.Count})");
    }

    private static SortedSet<string> Keys(IEngineSearcher searcher, Query query)
    {
        var keys = new SortedSet<string>(StringComparer.Ordinal);
        var matches = searcher.Iterate(query);
        while (matches.MoveNext())
            keys.Add(searcher.GetKey(matches.Current));
        Assert.Equal(keys.Count, searcher.Count(query));
        return keys;
    }

    private static double Haversine(double lat1, double lng1, double lat2, double lng2)
    {
        static double Rad(double d) => d * Math.PI / 180;
        var a = Math.Pow(Math.Sin(Rad(lat2 - lat1) / 2), 2) + Math.Cos(Rad(lat1)) * Math.Cos(Rad(lat2)) * Math.Pow(Math.Sin(Rad(lng2 - lng1) / 2), 2);
        return 2 * EarthKm * Math.Atan2(Math.Sqrt(a), Math.Sqrt(1 - a));
    }
}
