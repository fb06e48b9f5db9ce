using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using NetTopologySuite.IO;

namespace Folio.Server.Tests.Spatial;

/// <summary>
/// Spatial RQL over HTTP on auto indexes and static indexes of both engines, answers compared with an oracle written here
/// (haversine for circles and distances, NetTopologySuite for polygons) over random points that crowd the antimeridian
/// and the poles; bad shapes answer 400 naming the problem and the server keeps serving.
/// </summary>
public sealed class SpatialQueryTests : IAsyncLifetime
{
    private const double EarthKm = 6371.0087714;
    private const int Companies = 900;
    private readonly Dictionary<string, (double Lat, double Lng)?> _points = [];
    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync();
        _db = await FolioApi.CreateDatabaseAsync(Client);
        var random = new Random(2029);
        var body = new StringBuilder("{\"Commands\":[");
        for (var i = 0; i < Companies; i++)
        {
            var id = "companies/" + i;
            (double Lat, double Lng)? point = i % 9 == 0 ? null : RandomPoint(random, i);
            _points[id] = point;
            var location = point is { } p
                ? string.Create(CultureInfo.InvariantCulture, $",\"Address\":{{\"Location\":{{\"Latitude\":{p.Lat:R},\"Longitude\":{p.Lng:R}}}}},\"Geo\":\"POINT ({p.Lng:R} {p.Lat:R})\"")
                : "";
            body.Append(i > 0 ? "," : "").Append($"{{\"Type\":\"PUT\",\"Id\":\"{id}\",\"Document\":{{\"Name\":\"C{i}\"{location},\"@metadata\":{{\"@collection\":\"Companies\"}}}}}}");
        }
        body.Append("]}");
        using var response = await Client.PostAsync($"/databases/{_db}/bulk_docs", FolioApi.Json(body.ToString()));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        const string definitions = """
            {"Indexes":[
              {"Name":"Companies/Folio","Collections":["Companies"],"Fields":{"Name":{"Path":"Name"},
                "Location":{"Spatial":{"Latitude":"Address.Location.Latitude","Longitude":"Address.Location.Longitude"}}}},
              {"Name":"Companies/Lucene","Collections":["Companies"],"SearchEngine":"Lucene","Fields":{"Name":{"Path":"Name"},
                "Location":{"Spatial":{"Wkt":"Geo"}}}}]}
            """;
        using var put = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json(definitions));
        Assert.True(put.StatusCode is HttpStatusCode.Created or HttpStatusCode.OK, $"PUT indexes answered {(int)put.StatusCode}: {await put.Content.ReadAsStringAsync()}");
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    public static TheoryData<string> Fields => [
        "spatial.point(Address.Location.Latitude, Address.Location.Longitude)",
        "index 'Companies/Folio'|Location",
        "index 'Companies/Lucene'|Location",
        "spatial.wkt(Geo)",
    ];

    [Theory]
    [MemberData(nameof(Fields))]
    public async Task Within_Circles_AnswerWhatHaversineSays(string field)
    {
        var random = new Random(field.Length);
        var circles = new List<(double Radius, double Lat, double Lng, string Units)>
        {
            (20, 47.623, -122.3, ""), (900, 5, 179.5, ""), (600, -3, -179.8, ", 'kilometers'"), (400, 89.2, 10, ", 'miles'"), (1200, -88, -100, ""),
        };
        for (var i = 0; i < 8; i++)
            circles.Add((Math.Pow(10, 1 + random.NextDouble() * 3), random.NextDouble() * 180 - 90, random.NextDouble() * 360 - 180, ""));
        foreach (var (radius, lat, lng, units) in circles)
        {
            var km = units.Contains("miles", StringComparison.Ordinal) ? radius * 1.609344 : radius;
            var expected = Matching(p => Haversine(lat, lng, p.Lat, p.Lng) <= km);
            var answer = await QueryAsync(Where(field, "within", string.Create(CultureInfo.InvariantCulture, $"spatial.circle({radius:R}, {lat:R}, {lng:R}{units})")));
            Assert.Equal(expected, Ids(answer));
        }
    }

    [Theory]
    [MemberData(nameof(Fields))]
    public async Task PolygonsAndDisjoint_AnswerWhatNetTopologySuiteSays(string field)
    {
        var reader = new WKTReader();
        foreach (var wkt in new[] { "POLYGON((170 -30, 180 -30, 180 30, 170 30, 170 -30))", "POLYGON((-180 70, 180 70, 180 90, -180 90, -180 70))", "POLYGON((-20 -20, 40 -20, 10 45, -20 -20))" })
        {
            var geometry = reader.Read(wkt);
            var inside = Matching(p => geometry.Covers(new NetTopologySuite.Geometries.Point(p.Lng, p.Lat)));
            Assert.Equal(inside, Ids(await QueryAsync(Where(field, "within", $"spatial.wkt('{wkt}')"))));
            Assert.Equal(inside, Ids(await QueryAsync(Where(field, "intersects", $"spatial.wkt('{wkt}')"))));
            var outside = Matching(p => !geometry.Covers(new NetTopologySuite.Geometries.Point(p.Lng, p.Lat)));
            Assert.Equal(outside, Ids(await QueryAsync(Where(field, "disjoint", $"spatial.wkt('{wkt}')"))));
        }
    }

    [Theory]
    [MemberData(nameof(Fields))]
    public async Task OrderByDistance_SortsByHaversine_AndPutsItInMetadata(string field)
    {
        var (from, reference) = Split(field);
        foreach (var direction in new[] { "asc", "desc" })
        {
            var answer = await QueryAsync($"from {from} where spatial.within({reference}, spatial.circle(2500, 40, -170)) and Name != 'none' order by spatial.distance({reference}, spatial.point(40, -170)) {direction}");
            var results = answer.GetProperty("Results").EnumerateArray().ToList();
            var expected = _points.Where(p => p.Value is { } v && Haversine(40, -170, v.Lat, v.Lng) <= 2500)
                .Select(p => (p.Key, Distance: Haversine(40, -170, p.Value!.Value.Lat, p.Value.Value.Lng))).ToList();
            Assert.True(expected.Count > 5, "the circle should hold several points");
            Assert.Equal(expected.Count, results.Count);
            var distances = results.Select(r => r.GetProperty("@metadata").GetProperty("@spatial").GetProperty("Distance").GetDouble()).ToList();
            Assert.Equal(direction == "asc" ? distances.Order() : distances.OrderDescending(), distances);
            foreach (var result in results)
            {
                var metadata = result.GetProperty("@metadata");
                var id = metadata.GetProperty("@id").GetString()!;
                var point = _points[id]!.Value;
                var spatial = metadata.GetProperty("@spatial");
                Assert.Equal(Haversine(40, -170, point.Lat, point.Lng), spatial.GetProperty("Distance").GetDouble(), 6);
                Assert.Equal(point.Lat, spatial.GetProperty("Latitude").GetDouble(), 9);
                Assert.Equal(point.Lng, spatial.GetProperty("Longitude").GetDouble(), 9);
            }
        }
    }

    [Fact]
    public async Task OrderByDistance_WithProjectionAndPaging_KeepsTheOrderAcrossPages()
    {
        const string order = "order by spatial.distance(spatial.point(Address.Location.Latitude, Address.Location.Longitude), spatial.point(0, 0))";
        var all = Ids(await QueryAsync($"from Companies where exists(Name) {order} limit 1000"), sort: false);
        var page = await QueryAsync($"from Companies where exists(Name) {order} select Name limit 10 offset 5");
        var names = page.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("Name").GetString()).ToList();
        Assert.Equal(all.Skip(5).Take(10).Select(id => "C" + id["companies/".Length..]), names);
        Assert.True(page.GetProperty("Results")[0].GetProperty("@metadata").TryGetProperty("@spatial", out _));
        Assert.Equal(Companies, page.GetProperty("TotalResults").GetInt64());
        // Companies without a point come last.
        Assert.All(all.TakeLast(Companies / 9), id => Assert.Null(_points[id]));
    }

    [Theory]
    [MemberData(nameof(Fields))]
    public async Task OrderByDistance_BreaksTiesByFurtherKeys_AndMayFollowOne(string field)
    {
        var (from, reference) = Split(field);
        var inCircle = _points.Where(p => p.Value is { } v && Haversine(40, -170, v.Lat, v.Lng) <= 2500).Select(p => p.Key).ToList();
        Assert.True(inCircle.Count > 5, "the circle should hold several points");
        var within = $"from {from} where spatial.within({reference}, spatial.circle(2500, 40, -170))";
        // Rounded to 5000 km every distance in the circle is 0: the names decide, descending.
        var byName = Ids(await QueryAsync($"{within} order by spatial.distance({reference}, spatial.point(40, -170), 5000), Name desc"), sort: false);
        Assert.Equal(inCircle.Select(id => "C" + id["companies/".Length..]).OrderDescending(StringComparer.Ordinal), byName.Select(id => "C" + id["companies/".Length..]));
        // Names are distinct, so a distance after them never decides.
        var nameFirst = Ids(await QueryAsync($"{within} order by Name, spatial.distance({reference}, spatial.point(40, -170))"), sort: false);
        Assert.Equal(inCircle.Select(id => "C" + id["companies/".Length..]).Order(StringComparer.Ordinal), nameFirst.Select(id => "C" + id["companies/".Length..]));
    }

    [Theory]
    [InlineData("spatial.circle(-5, 10, 10)", "radius of spatial.circle() must be a number of 0 or more")]
    [InlineData("spatial.circle(10, 91, 10)", "latitude of spatial.circle() must be between -90 and 90")]
    [InlineData("spatial.circle(10, 10, 190)", "longitude of spatial.circle() must be between -180 and 180")]
    [InlineData("spatial.circle('ten', 10, 10)", "radius of spatial.circle() must be a number")]
    [InlineData("spatial.circle(10, 10, 10, 'furlongs')", "'kilometers' or 'miles'")]
    [InlineData("spatial.wkt('POLYGON((0 0, 10 0, 10 10))')", "spatial.wkt() could not read")]
    [InlineData("spatial.wkt('POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))')", "not a valid polygon")]
    [InlineData("spatial.wkt('POLYGON((0 0, 10 0, 10 100, 0 0))')", "off the earth")]
    [InlineData("spatial.wkt('LINESTRING(0 0, 1 1)')", "takes a POLYGON")]
    [InlineData("spatial.square(1, 2, 3)", "Expected a shape")]
    public async Task BadShape_Answers400NamingTheProblem_AndTheServerKeepsServing(string shape, string expected)
    {
        using var response = await PostQueryAsync($"from Companies where spatial.within(spatial.point(Address.Location.Latitude, Address.Location.Longitude), {shape})");
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        Assert.Contains(expected, problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.NotEmpty(Ids(await QueryAsync(Where("spatial.point(Address.Location.Latitude, Address.Location.Longitude)", "within", "spatial.circle(3000, 0, 0)"))));
    }

    [Theory]
    [InlineData("from index 'Companies/Folio' where spatial.within(Name, spatial.circle(10, 1, 1))", "is not spatial")]
    [InlineData("from index 'Companies/Folio' where spatial.within(Nowhere, spatial.circle(10, 1, 1))", "has no field 'Nowhere'")]
    [InlineData("from Companies where spatial.within(Location, spatial.circle(10, 1, 1))", "spatial.point(latPath, lngPath)")]
    [InlineData("from index 'Companies/Folio' where spatial.contains(Location, spatial.circle(10, 1, 1))", "contain no area")]
    [InlineData("from index 'Companies/Folio' order by spatial.distance(Location, spatial.point(95, 0))", "latitude of spatial.point()")]
    [InlineData("from index 'Companies/Folio' order by spatial.distance(Location, spatial.point(5, 0)), score()", "only fields as keys")]
    [InlineData("from index 'Companies/Folio' order by Name, spatial.distance(Location, spatial.point(5, 0)), spatial.distance(Location, spatial.point(0, 5))", "no second distance")]
    public async Task BadSpatialReference_Answers400NamingTheProblem(string rql, string expected)
    {
        using var response = await PostQueryAsync(rql);
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidQuery);
        Assert.Contains(expected, problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task SpatialIndexDefinition_ReadsBackAsGiven_AndRefusesHalfASource()
    {
        var definition = await FolioApi.GetJsonAsync(Client, $"/databases/{_db}/indexes?name={Uri.EscapeDataString("Companies/Folio")}");
        Assert.Contains("\"Spatial\":{\"Latitude\":\"Address.Location.Latitude\",\"Longitude\":\"Address.Location.Longitude\"}", definition.GetRawText(), StringComparison.Ordinal);
        using var bad = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Bad","Collections":["Companies"],"Fields":{"L":{"Spatial":{"Latitude":"Lat"}}}}]}"""));
        var problem = await ProblemAssert.IsProblemAsync(bad, HttpStatusCode.BadRequest, ProblemTypes.InvalidIndexDefinition);
        Assert.Contains("needs both Latitude and Longitude", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    private static (double Lat, double Lng) RandomPoint(Random random, int i) => (i % 4) switch
    {
        0 => (random.NextDouble() * 160 - 80, random.Next(2) == 0 ? 180 - random.NextDouble() * 3 : -180 + random.NextDouble() * 3),
        1 => (random.Next(2) == 0 ? 90 - random.NextDouble() * 4 : -90 + random.NextDouble() * 4, random.NextDouble() * 360 - 180),
        2 => (47.623 + (random.NextDouble() - 0.5) * 0.6, -122.3 + (random.NextDouble() - 0.5) * 0.9),
        _ => (Math.Asin(random.NextDouble() * 2 - 1) * 180 / Math.PI, random.NextDouble() * 360 - 180),
    };

    private static (string From, string Reference) Split(string field) =>
        field.Contains('|', StringComparison.Ordinal) ? (field[..field.IndexOf('|', StringComparison.Ordinal)], field[(field.IndexOf('|', StringComparison.Ordinal) + 1)..]) : ("Companies", field);

    private static string Where(string field, string relation, string shape)
    {
        var (from, reference) = Split(field);
        return $"from {from} where spatial.{relation}({reference}, {shape}) limit 1000";
    }

    private List<string> Matching(Func<(double Lat, double Lng), bool> predicate) =>
        [.. _points.Where(p => p.Value is { } v && predicate(v)).Select(p => p.Key).Order(StringComparer.Ordinal)];

    private static List<string> Ids(JsonElement answer, bool sort = true)
    {
        var ids = answer.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!);
        return sort ? [.. ids.Order(StringComparer.Ordinal)] : [.. ids];
    }

    private Task<HttpResponseMessage> PostQueryAsync(string rql) =>
        Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true })));

    private async Task<JsonElement> QueryAsync(string rql)
    {
        using var response = await PostQueryAsync(rql);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{rql} answered {(int)response.StatusCode}: {body}");
        var answer = JsonDocument.Parse(body).RootElement.Clone();
        Assert.False(answer.GetProperty("IsStale").GetBoolean(), rql);
        return answer;
    }

    private static double Haversine(double lat1, double lng1, double lat2, double lng2)
    {
        static double Rad(double d) => d * Math.PI / 180;
        var a = Math.Pow(Math.Sin(Rad(lat2 - lat1) / 2), 2) + Math.Cos(Rad(lat1)) * Math.Cos(Rad(lat2)) * Math.Pow(Math.Sin(Rad(lng2 - lng1) / 2), 2);
        return 2 * EarthKm * Math.Atan2(Math.Sqrt(a), Math.Sqrt(1 - a));
    }
}
