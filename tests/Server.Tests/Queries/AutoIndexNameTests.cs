using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// Regression: an auto index is named after all its fields, and widening keeps every field earlier
/// queries used, so a collection queried on enough fields got a name over the 200-character limit and
/// every query needing a new field answered 400 "An index name may have at most 200 characters" (found
/// by the SQLite oracle's 20-field warm-up query). Long names are now cut and end with a hash.
/// </summary>
public sealed class AutoIndexNameTests
{
    [Fact]
    public async Task Query_OnManyFields_GetsAnAutoIndexInsteadOf400NameTooLong()
    {
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "orders/1", """{"ShippingAddressCity":"Oslo","BillingAddressCountry":"Norway","@metadata":{"@collection":"Orders"}}""");

        var fields = Enumerable.Range(0, 20).Select(i => $"SomeFairlyLongFieldName{i:D2}").ToList();
        var first = await QueryAsync(server.Client, db, "from Orders where exists(ShippingAddressCity) or " + string.Join(" or ", fields.Select(f => $"exists({f})")));
        Assert.Equal(1, first.GetProperty("TotalResults").GetInt64());
        var name = first.GetProperty("IndexName").GetString()!;
        Assert.StartsWith("Auto/Orders/By", name, StringComparison.Ordinal);
        Assert.True(name.Length <= 200, $"{name} has {name.Length} characters.");

        // The same fields reuse the index; one more widens it, again under a name that fits.
        var again = await QueryAsync(server.Client, db, "from Orders where exists(ShippingAddressCity) or " + string.Join(" or ", fields.Select(f => $"exists({f})")));
        Assert.Equal(name, again.GetProperty("IndexName").GetString());
        var wider = await QueryAsync(server.Client, db, "from Orders where BillingAddressCountry = 'norway'");
        Assert.Equal(1, wider.GetProperty("TotalResults").GetInt64());
        var widerName = wider.GetProperty("IndexName").GetString()!;
        Assert.NotEqual(name, widerName);
        Assert.True(widerName.Length <= 200, $"{widerName} has {widerName.Length} characters.");
    }

    private static async Task<JsonElement> QueryAsync(HttpClient client, string db, string rql)
    {
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true })));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{rql} answered {(int)response.StatusCode}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }
}
