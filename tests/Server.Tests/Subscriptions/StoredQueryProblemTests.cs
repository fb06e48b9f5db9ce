using System.Net;
using System.Text.Json;
using System.Text.Json.Nodes;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Subscriptions;

/// <summary>
/// A subscription stored with a query this build does not run (an earlier build took it) no longer keeps its database
/// from opening: found from outside, where every request to the database answered the subscription's query error.
/// The subscription stays listed and disabled until its query is updated.
/// </summary>
public sealed class StoredQueryProblemTests
{
    [Fact]
    public async Task Open_WithAStoredSubscriptionWhoseQueryNoLongerRuns_ServesTheDatabaseAndKeepsItDisabled()
    {
        await using RunningServer first = await RunningServer.StartAsync();
        string db = await CreateDatabaseAsync(first.Client);
        await StoreAsync(first.Client, db, "orders/1", """{"Total":7,"@metadata":{"@collection":"Orders"}}""");
        using (var created = await first.Client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json("""{"Name":"old","Query":"from Orders"}""")))
            Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        await first.StopAsync();

        // As an earlier build could have stored it: a query this one refuses for a subscription.
        string file = Path.Combine(first.DataDir, "Databases", db, "subscriptions.json");
        var stored = JsonNode.Parse(await File.ReadAllTextAsync(file))!;
        stored["Subscriptions"]![0]!["Query"] = "from Orders where search(Notes, 'late')";
        await File.WriteAllTextAsync(file, stored.ToJsonString());

        await using RunningServer second = await RunningServer.StartOnAsync(first.DataDir);
        Assert.NotNull(await LoadAsync(second.Client, db, "orders/1"));
        using (var state = await second.Client.GetAsync($"/databases/{db}/subscriptions/state?name=old"))
        {
            Assert.Equal(HttpStatusCode.OK, state.StatusCode);
            using var body = JsonDocument.Parse(await state.Content.ReadAsStringAsync());
            Assert.True(body.RootElement.GetProperty("Disabled").GetBoolean());
        }
        using (var enable = await second.Client.PostAsync($"/databases/{db}/admin/tasks/state?taskName=old&key=0&type=Subscription&disable=false", null))
        {
            var problem = await ProblemAssert.IsProblemAsync(enable, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-subscription");
            Assert.Contains("search() needs a full-text index", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        }

        // A backup of the database restores with the subscription as it opens: disabled, its query kept.
        string backup = Path.Combine(first.DataDir, "backup");
        using (var backedUp = await second.Client.PostAsync($"/admin/databases/{db}/backup", FolioApi.Json(JsonSerializer.Serialize(new { Directory = backup }))))
            Assert.Equal(HttpStatusCode.Created, backedUp.StatusCode);
        string copy = FolioApi.NewDatabaseName();
        using (var restored = await second.Client.PostAsync("/admin/databases/restore", FolioApi.Json(JsonSerializer.Serialize(new { Directory = backup, Name = copy }))))
            Assert.True(restored.IsSuccessStatusCode, await restored.Content.ReadAsStringAsync());
        using (var copied = await second.Client.GetAsync($"/databases/{copy}/subscriptions/state?name=old"))
        {
            using var body = JsonDocument.Parse(await copied.Content.ReadAsStringAsync());
            Assert.True(body.RootElement.GetProperty("Disabled").GetBoolean());
        }

        using (var update = await second.Client.PostAsync($"/databases/{db}/subscriptions/update", FolioApi.Json("""{"Name":"old","Query":"from Orders where Total > 5"}""")))
            Assert.Equal(HttpStatusCode.OK, update.StatusCode);
        // Disabled only for its query, not by a user: updated, it runs again at once, and the file never said disabled.
        Assert.DoesNotContain("\"Disabled\":true", await File.ReadAllTextAsync(file), StringComparison.Ordinal);
        using (var state = await second.Client.GetAsync($"/databases/{db}/subscriptions/state?name=old"))
        {
            using var body = JsonDocument.Parse(await state.Content.ReadAsStringAsync());
            Assert.False(body.RootElement.GetProperty("Disabled").GetBoolean());
        }
        using (var enable = await second.Client.PostAsync($"/databases/{db}/admin/tasks/state?taskName=old&key=0&type=Subscription&disable=false", null))
            Assert.Equal(HttpStatusCode.OK, enable.StatusCode);
    }
}
