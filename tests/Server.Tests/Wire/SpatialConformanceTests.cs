using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>Spatial index definitions and spatial queries answer as the wire contract says: <c>@metadata.@spatial</c>, spatial fields read back, 400s.</summary>
public sealed class SpatialConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Queries = "/databases/{db}/queries";
    private const string Indexes = "/databases/{db}/indexes";

    [Fact]
    [Exercises("POST /databases/{db}/queries", "PUT /databases/{db}/indexes", "GET /databases/{db}/indexes")]
    public async Task SpatialQueriesAndDefinitions_AnswerAsDocumented()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        await FolioApi.StoreAsync(Server.Client, db, "companies/1", """{"Name":"A","Address":{"Location":{"Latitude":47.62,"Longitude":-122.30}},"@metadata":{"@collection":"Companies"}}""");
        await FolioApi.StoreAsync(Server.Client, db, "companies/2", """{"Name":"B","Address":{"Location":{"Latitude":47.70,"Longitude":-122.40}},"@metadata":{"@collection":"Companies"}}""");
        string indexes = $"/databases/{db}/indexes";
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Indexes, indexes, """{"Indexes":[{"Name":"Companies/ByLocation","Collections":["Companies"],"Fields":{"Name":{"Path":"Name"},"Location":{"Spatial":{"Latitude":"Address.Location.Latitude","Longitude":"Address.Location.Longitude"}},"Geo":{"Spatial":{"Wkt":"Geo"}}}}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Indexes, indexes, """{"Indexes":[{"Name":"Bad","Collections":["Companies"],"Fields":{"L":{"Path":"X","Spatial":{"Wkt":"Geo"}}}}]}""")).Status);
        WireAnswer stored = await Wire.GetAsync(Indexes, $"{indexes}?name=Companies/ByLocation");
        Assert.Equal(200, stored.Status);
        Assert.Equal(404, (await Wire.GetAsync(Indexes, $"{indexes}?name=No/Such")).Status);

        string uri = $"/databases/{db}/queries";
        const string point = "spatial.point(Address.Location.Latitude, Address.Location.Longitude)";
        WireAnswer ordered = await QueryAsync(uri, $"from Companies where spatial.within({point}, spatial.circle(50, 47.6, -122.3)) order by spatial.distance({point}, spatial.point(47.6, -122.3))");
        JsonElement first = ordered.Body.GetProperty("Results")[0];
        Assert.Equal("companies/1", first.GetProperty("@metadata").GetProperty("@id").GetString());
        Assert.True(first.GetProperty("@metadata").GetProperty("@spatial").GetProperty("Distance").GetDouble() < 5);
        WireAnswer projected = await QueryAsync(uri, "from index 'Companies/ByLocation' where spatial.intersects(Location, spatial.wkt('POLYGON((-123 47, -122 47, -122 48, -123 48, -123 47))')) order by spatial.distance(Location, spatial.point(47.7, -122.4)) desc select Name");
        Assert.Equal("A", projected.Body.GetProperty("Results")[0].GetProperty("Name").GetString());
        Assert.Equal(400, (await QueryAsync(uri, $"from Companies where spatial.within({point}, spatial.circle(-1, 47.6, -122.3))")).Status);
        Assert.Equal(400, (await QueryAsync(uri, "from index 'Companies/ByLocation' where spatial.within(Location, spatial.wkt('POLYGON((0 0, 1 1))'))")).Status);

        AssertExercised();
    }

    private Task<WireAnswer> QueryAsync(string uri, string query)
    {
        string body = JsonSerializer.Serialize(new { Query = query, WaitForNonStaleResults = true });
        return Wire.SendAsync(HttpMethod.Post, Queries, uri, body);
    }
}
