using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Subscriptions;

public class SubscriptionsEndpointTests : IClassFixture<ServerFixture>
{
    private readonly HttpClient _client;

    public SubscriptionsEndpointTests(ServerFixture fixture)
    {
        _client = fixture.Client;
    }

    [Fact]
    public async Task Put_CreatesASubscription_ThatListAndGetShowAndDeleteRemoves()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "orders/1", """{"Total":5,"@metadata":{"@collection":"Orders"}}""");

        using (HttpResponseMessage created = await PutAsync(db, """{"Name":"Big orders","Query":"from Orders where Total > 100","StartFrom":"Now"}"""))
        {
            Assert.Equal(HttpStatusCode.Created, created.StatusCode);
            JsonElement body = JsonDocument.Parse(await created.Content.ReadAsStringAsync()).RootElement;
            Assert.Equal("Orders", body.GetProperty("Collection").GetString());
            Assert.Equal(1, body.GetProperty("AcknowledgedEtag").GetInt64());
            Assert.Equal(JsonValueKind.Null, body.GetProperty("Worker").ValueKind);
        }

        using (HttpResponseMessage other = await PutAsync(db, """{"Name":"all","Query":"from Orders"}"""))
            Assert.Equal(HttpStatusCode.Created, other.StatusCode);
        JsonElement list = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions");
        Assert.Equal(["all", "Big orders"], list.GetProperty("Results").EnumerateArray().Select(s => s.GetProperty("Name").GetString()));
        JsonElement one = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions?name=BIG%20ORDERS");
        Assert.Equal("from Orders where Total > 100", one.GetProperty("Query").GetString());
        Assert.Equal(0, one.GetProperty("EtagLag").GetInt64());
        Assert.Equal(1, (await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions?name=all")).GetProperty("EtagLag").GetInt64());

        using (HttpResponseMessage deleted = await _client.DeleteAsync($"/databases/{db}/subscriptions?name=all"))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        using (HttpResponseMessage gone = await _client.GetAsync($"/databases/{db}/subscriptions?name=all"))
            await ProblemAssert.IsProblemAsync(gone, HttpStatusCode.NotFound, "urn:folio:problem:subscription-not-found");
        using (HttpResponseMessage again = await _client.DeleteAsync($"/databases/{db}/subscriptions?name=all"))
            await ProblemAssert.IsProblemAsync(again, HttpStatusCode.NotFound, "urn:folio:problem:subscription-not-found");
    }

    [Fact]
    public async Task Put_WithoutName_NamesTheSubscriptionWithTheSmallestFreeNumber_AndTaskNameDeletes()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using (HttpResponseMessage named = await PutAsync(db, """{"Name":"2","Query":"from Orders"}"""))
            Assert.Equal(HttpStatusCode.Created, named.StatusCode);

        var names = new List<string>();
        foreach (string body in new[] { """{"Query":"from Orders"}""", """{"Name":null,"Query":"from Users","ChangeVector":"LastDocument"}""" })
        {
            using HttpResponseMessage created = await PutAsync(db, body);
            Assert.Equal(HttpStatusCode.Created, created.StatusCode);
            JsonElement answer = JsonDocument.Parse(await created.Content.ReadAsStringAsync()).RootElement;
            Assert.Equal(answer.GetProperty("Name").GetString(), answer.GetProperty("SubscriptionName").GetString());
            names.Add(answer.GetProperty("Name").GetString()!);
        }

        Assert.Equal(["1", "3"], names);
        using (HttpResponseMessage deleted = await _client.DeleteAsync($"/databases/{db}/subscriptions?taskName=1"))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        JsonElement list = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions");
        Assert.Equal(["2", "3"], list.GetProperty("Results").EnumerateArray().Select(s => s.GetProperty("Name").GetString()));
    }

    [Fact]
    public async Task Put_AnswersConflict_ForANameInUse_AndChangesNothing()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using (await PutAsync(db, """{"Name":"s","Query":"from Orders"}"""))
        {
        }

        using HttpResponseMessage again = await PutAsync(db, """{"Name":"S","Query":"from Users"}""");

        await ProblemAssert.IsProblemAsync(again, HttpStatusCode.Conflict, "urn:folio:problem:subscription-exists");
        Assert.Equal("from Orders", (await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions?name=s")).GetProperty("Query").GetString());
    }

    [Theory]
    [InlineData("""{"Name":"","Query":"from Orders"}""", "urn:folio:problem:invalid-subscription")]
    [InlineData("""{"Name":"s"}""", "urn:folio:problem:invalid-subscription")]
    [InlineData("""{"Name":"s","Query":"from Orders","StartFrom":"Yesterday"}""", "urn:folio:problem:invalid-subscription")]
    [InlineData("""{"Name":"s","Query":"from Orders","StartFrom":-3}""", "urn:folio:problem:invalid-subscription")]
    [InlineData("""{"Name":"s","Query":"from Orders where"}""", "urn:folio:problem:invalid-query")]
    [InlineData("""{"Name":"s","Query":"from index 'Orders/ByTotal'"}""", "urn:folio:problem:invalid-query")]
    [InlineData("""{"Name":"s","Query":"from Orders order by Total"}""", "urn:folio:problem:invalid-query")]
    [InlineData("""{"Name":"s","Query":"from Orders where search(Notes, 'x')"}""", "urn:folio:problem:invalid-query")]
    [InlineData("""[1]""", "urn:folio:problem:invalid-subscription")]
    [InlineData("""{"Name":""", "urn:folio:problem:malformed-json")]
    public async Task Put_AnswersBadRequest_ForAnUnusableSubscription(string body, string type)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        using HttpResponseMessage response = await PutAsync(db, body);

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, type);
        Assert.Equal(0, (await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions")).GetProperty("Results").GetArrayLength());
    }

    private Task<HttpResponseMessage> PutAsync(string db, string body) =>
        _client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json(body));
}
