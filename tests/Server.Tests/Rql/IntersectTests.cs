using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Rql;

/// <summary>
/// <c>intersect()</c> on the seeds' arrays-of-objects case: t-shirts, each with several (color, size) types, indexed by a
/// fan-out index (one entry per type) on each engine. A sub-query must hold within one type; the documents of all
/// sub-queries are the answer, each once. The oracle is LINQ over the generated t-shirts, before and after some of
/// them change (fewer types, deleted), so entries of an older version must not linger.
/// </summary>
public sealed class IntersectTests
{
    private const string Definition = """{"Name":"TShirts/ENGINE","Collections":["TShirts"],"SearchEngine":"ENGINE","ForEach":"Types[]","Fields":{"Manufacturer":{"Path":"Manufacturer"},"Color":{"Path":"Types[].Color"},"Size":{"Path":"Types[].Size"},"ReleaseYear":{"Path":"ReleaseYear","Type":"Long"}}}""";

    private static readonly string[] Colors = ["Blue", "Gray", "Red", "Black"];
    private static readonly string[] Sizes = ["Small", "Medium", "Large"];
    private static readonly string[] Manufacturers = ["Raven", "Wolf", "Owl"];

    private sealed record TShirtType(string Color, string Size);

    private sealed record TShirt(string Id, string Manufacturer, int ReleaseYear, List<TShirtType> Types);

    private static readonly (string Where, Func<TShirt, bool> Oracle)[] Queries =
    [
        ("where intersect(Manufacturer = 'Raven', Color = 'Blue' and Size = 'Small', Color = 'Gray' and Size = 'Large')",
            t => t.Manufacturer == "Raven" && Has(t, "Blue", "Small") && Has(t, "Gray", "Large")),
        ("where intersect(Color = 'Blue' and Size = 'Small', Color = 'blue' and Size = 'Large')", t => Has(t, "Blue", "Small") && Has(t, "Blue", "Large")),
        ("where intersect(Color = 'Red', Color = 'Black', ReleaseYear >= 2015)", t => t.Types.Any(x => x.Color == "Red") && t.Types.Any(x => x.Color == "Black") && t.ReleaseYear >= 2015),
        // Without intersect, a fan-out index's conditions hold within one entry too.
        ("where Color = 'Blue' and Size = 'Small'", t => Has(t, "Blue", "Small")),
        // A t-shirt without types has no entry: the index knows nothing of it.
        ("where Color = 'Gray' or Manufacturer = 'Owl'", t => t.Types.Any(x => x.Color == "Gray") || (t.Manufacturer == "Owl" && t.Types.Count > 0)),
    ];

    [Fact]
    public async Task Intersect_OnAFanOutIndex_AnswersAsTheOracle_OnBothEngines_AfterChangesToo()
    {
        var random = new Random(29);
        var shirts = Enumerable.Range(1, 80).Select(i => new TShirt($"tshirts/{i}", Manufacturers[random.Next(Manufacturers.Length)], 2010 + random.Next(12),
            [.. Enumerable.Range(0, random.Next(0, 6)).Select(_ => new TShirtType(Colors[random.Next(Colors.Length)], Sizes[random.Next(Sizes.Length)]))])).ToList();
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        foreach (var shirt in shirts)
            await StoreAsync(server.Client, db, shirt.Id, Serialize(shirt));
        var definitions = string.Join(',', new[] { "Folio", "Lucene" }.Select(e => Definition.Replace("ENGINE", e, StringComparison.Ordinal)));
        using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{definitions}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        var stored = await GetJsonAsync(server.Client, $"/databases/{db}/indexes");
        Assert.Contains("\"ForEach\":\"Types[]\"", stored.GetRawText(), StringComparison.Ordinal);

        await AssertAnswersAsync(server.Client, db, shirts);

        // Fewer types, no types, more types, deleted: each document's older entries must go with its older version.
        shirts[0] = shirts[0] with { Types = [new("Blue", "Small"), new("Gray", "Large")], Manufacturer = "Raven" };
        shirts[1] = shirts[1] with { Types = [] };
        shirts[2] = shirts[2] with { Types = [.. shirts[2].Types, new("Blue", "Small"), new("Blue", "Large"), new("Red", "Small")] };
        foreach (var shirt in shirts.Take(3))
            await StoreAsync(server.Client, db, shirt.Id, Serialize(shirt));
        using (var deleted = await server.Client.DeleteAsync(DocsUri(db, shirts[3].Id)))
            Assert.True(deleted.IsSuccessStatusCode);
        shirts.RemoveAt(3);
        await AssertAnswersAsync(server.Client, db, shirts);
    }

    [Fact]
    public async Task FanOutQuery_PagesAndCountsDocuments_NotEntries()
    {
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        for (var i = 1; i <= 9; i++)
        {
            var shirt = new TShirt($"tshirts/{i}", "Raven", 2000 + i, [new("Blue", "Small"), new("Blue", "Large"), new("Gray", "Small")]);
            await StoreAsync(server.Client, db, shirt.Id, Serialize(shirt));
        }
        using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{Definition.Replace("ENGINE", "Folio", StringComparison.Ordinal)}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        var (ids, total) = await QueryAsync(server.Client, db, "from index 'TShirts/Folio' where Color = 'Blue' order by ReleaseYear as long desc limit 3 offset 2");
        Assert.Equal(["tshirts/7", "tshirts/6", "tshirts/5"], ids);
        Assert.Equal(9, total);
    }

    private static bool Has(TShirt shirt, string color, string size) => shirt.Types.Any(t => t.Color == color && t.Size == size);

    private static async Task AssertAnswersAsync(HttpClient client, string db, List<TShirt> shirts)
    {
        foreach (var (where, oracle) in Queries)
        {
            var expected = shirts.Where(oracle).Select(s => s.Id).Order(StringComparer.Ordinal).ToList();
            Assert.NotEmpty(expected);
            foreach (var engine in new[] { "Folio", "Lucene" })
            {
                var (ids, total) = await QueryAsync(client, db, $"from index 'TShirts/{engine}' {where}");
                Assert.True(expected.SequenceEqual(ids.Order(StringComparer.Ordinal)), $"{engine} {where}: expected {string.Join(' ', expected)}, got {string.Join(' ', ids)}");
                Assert.Equal(expected.Count, total);
            }
        }
    }

    private static string Serialize(TShirt shirt) => JsonSerializer.Serialize(new
    {
        shirt.Manufacturer,
        shirt.ReleaseYear,
        shirt.Types,
        @metadata = new Dictionary<string, string> { ["@collection"] = "TShirts" },
    }).Replace("\"metadata\"", "\"@metadata\"", StringComparison.Ordinal);

    private static async Task<(List<string> Ids, long Total)> QueryAsync(HttpClient client, string db, string rql)
    {
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true })));
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, text);
        using var json = JsonDocument.Parse(text);
        var ids = json.RootElement.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!).ToList();
        return (ids, json.RootElement.GetProperty("TotalResults").GetInt64());
    }
}
