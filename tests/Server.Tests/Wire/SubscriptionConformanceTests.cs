using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>The subscription routes answer as the wire contract says, for good and bad input.</summary>
public sealed class SubscriptionConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string Subscriptions = "/databases/{db}/subscriptions";

    [Fact]
    [Exercises("PUT /databases/{db}/subscriptions", "GET /databases/{db}/subscriptions", "DELETE /databases/{db}/subscriptions")]
    public async Task Subscriptions_AnswerAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string uri = $"/databases/{db}/subscriptions";

        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Subscriptions, uri, """{"Name":"big","Query":"from Orders where Total > 100","StartFrom":"Now"}""")).Status);
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Subscriptions, uri, """{"Name":"all","Query":"from Orders","StartFrom":0}""")).Status);
        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Put, Subscriptions, uri, """{"Name":"ALL","Query":"from Orders"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Subscriptions, uri, """{"Name":"x","Query":"from Orders order by Total"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Put, Subscriptions, uri, """{"Name":"x"}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Put, Subscriptions, "/databases/no-such-db/subscriptions", """{"Name":"x","Query":"from Orders"}""")).Status);

        Assert.Equal(2, (await Wire.GetAsync(Subscriptions, uri)).Body.GetProperty("Results").GetArrayLength());
        Assert.Equal("big", (await Wire.GetAsync(Subscriptions, $"{uri}?name=BIG")).Body.GetProperty("Name").GetString());
        Assert.Equal(404, (await Wire.GetAsync(Subscriptions, $"{uri}?name=nobody")).Status);
        Assert.Equal(400, (await Wire.GetAsync(Subscriptions, $"{uri}?name=a&name=b")).Status);

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Delete, Subscriptions, $"{uri}?name=big")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Delete, Subscriptions, $"{uri}?name=big")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Delete, Subscriptions, uri)).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("GET /databases/{db}/subscriptions/state", "POST /databases/{db}/subscriptions/update", "POST /databases/{db}/subscriptions/drop")]
    public async Task SubscriptionManagement_AnswersAsDocumented_ForGoodAndBadInput()
    {
        const string State = "/databases/{db}/subscriptions/state";
        const string Update = "/databases/{db}/subscriptions/update";
        const string Drop = "/databases/{db}/subscriptions/drop";
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Put, Subscriptions, $"/databases/{db}/subscriptions", """{"Name":"orders","Query":"from Orders"}""")).Status);

        WireAnswer state = await Wire.GetAsync(State, $"/databases/{db}/subscriptions/state?name=ORDERS");
        Assert.Equal(200, state.Status);
        long id = state.Body.GetProperty("SubscriptionId").GetInt64();
        Assert.Equal(404, (await Wire.GetAsync(State, $"/databases/{db}/subscriptions/state?name=nobody")).Status);
        Assert.Equal(400, (await Wire.GetAsync(State, $"/databases/{db}/subscriptions/state")).Status);

        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Post, Update, $"/databases/{db}/subscriptions/update", """{"Name":"orders","Query":"from Orders where Total > 5"}""")).Status);
        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Post, Update, $"/databases/{db}/subscriptions/update", $$"""{"Id":{{id}},"Query":"from Orders where Total > 6","ChangeVector":"BeginningOfTime"}""")).Status);
        Assert.Equal("from Orders where Total > 6", (await Wire.GetAsync(State, $"/databases/{db}/subscriptions/state?name=orders")).Body.GetProperty("Query").GetString());
        Assert.Equal(200, (await Wire.SendAsync(HttpMethod.Post, Update, $"/databases/{db}/subscriptions/update", """{"Name":"made","Query":"from Users","CreateNew":true}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Update, $"/databases/{db}/subscriptions/update", """{"Name":"nobody","Query":"from Users"}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Update, $"/databases/{db}/subscriptions/update", """{"Name":"orders","Id":322}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Update, $"/databases/{db}/subscriptions/update", """{"Query":"from Users"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Update, $"/databases/{db}/subscriptions/update", """{"Name":"orders","Query":"from Orders order by Total"}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Update, $"/databases/{db}/subscriptions/update", """{"Name":"orders","ChangeVector":"X:1-nope"}""")).Status);
        Assert.Equal("from Orders where Total > 6", (await Wire.GetAsync(State, $"/databases/{db}/subscriptions/state?name=orders")).Body.GetProperty("Query").GetString());

        Assert.Equal(204, (await Wire.SendAsync(HttpMethod.Post, Drop, $"/databases/{db}/subscriptions/drop?name=orders")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, Drop, $"/databases/{db}/subscriptions/drop?name=nobody")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, Drop, $"/databases/{db}/subscriptions/drop")).Status);

        AssertExercised();
    }
}
