using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Subscriptions;

/// <summary>
/// Frames on the subscriptions' port that ended the connection with an unhandled exception and no answer: invalid UTF-8
/// inside a string and a version that is not a number (tests/Fuzz, the tcp-seeds harness), and an acknowledgement whose
/// Type is not a string or whose LastEtag is not a whole number (the same mistake, read in the code tcp-folio drives).
/// Each must now get the protocol's refusal, and the server keeps serving.
/// </summary>
public class SubscriptionHostileFrameTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;
    private readonly HttpClient _client;

    public SubscriptionHostileFrameTests(ServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.Client;
    }

    private IPEndPoint TcpEndPoint => _fixture.Running.Server.TcpEndPoint;

    [Fact]
    public async Task Worker_IsRefusedAsInvalid_WhenItsHeaderIsNotUtf8()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await CreateAsync(db, "s");
        byte[] header = [.. Encoding.UTF8.GetBytes($$"""{"Database":"{{db}}","Subscription":"s"""), 0xFF, .. "\"}\n"u8];

        using SubscriptionClient worker = await SubscriptionClient.ConnectRawAsync(TcpEndPoint, header);

        Assert.Equal("Invalid", (await worker.ExpectAsync("Error")).GetProperty("Code").GetString());
        Assert.Null(await worker.ReceiveAsync());
        await FolioApi.AssertServingAsync(_client);
    }

    [Theory]
    [InlineData("""{"Type":1,"LastEtag":1}""")]
    [InlineData("""{"Type":"Ack","LastEtag":1.5}""")]
    [InlineData("""{"Type":"Ack","LastEtag":1e30}""")]
    public async Task Worker_IsRefusedAsInvalid_ForAnAcknowledgementOfTheWrongShape(string acknowledgement)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "orders/1", """{"@metadata":{"@collection":"Orders"}}""");
        await CreateAsync(db, "s");
        using SubscriptionClient worker = await SubscriptionClient.ConnectAsync(TcpEndPoint, SubscriptionClient.Header(db, "s"));
        await worker.ExpectAsync("Connected");
        await worker.ExpectAsync("Batch");

        await worker.SendAsync(acknowledgement);

        Assert.Equal("Invalid", (await worker.ExpectAsync("Error")).GetProperty("Code").GetString());
        Assert.Null(await worker.ReceiveAsync());
        JsonElement state = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/subscriptions/state?name=s");
        Assert.Equal(0, state.GetProperty("AcknowledgedEtag").GetInt64());
    }

    [Theory]
    [InlineData("""{"Operation":"Subscription","DatabaseName":"{db}","OperationVersion":"53000"}""")]
    [InlineData("""{"Operation":"Subscription","DatabaseName":"{db}","OperationVersion":true}""")]
    [InlineData("""{"Operation":"Subscription","DatabaseName":"{db}\xFF","OperationVersion":53000}""")]
    public async Task SeedsWorker_GetsAVersionMismatch_ForAHeaderItCannotUse(string header)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using SeedsSubscriptionClient worker = await SeedsSubscriptionClient.ConnectAsync(TcpEndPoint);

        await worker.SendBytesAsync(Hostile(header.Replace("{db}", db, StringComparison.Ordinal)));

        JsonElement answer = (await worker.ReceiveAsync())!.Value;
        Assert.Equal("TcpVersionMismatch", answer.GetProperty("Status").GetString());
        Assert.False(string.IsNullOrEmpty(answer.GetProperty("Message").GetString()));
        Assert.Null(await worker.ReceiveAsync());
        await FolioApi.AssertServingAsync(_client);
    }

    [Fact]
    public async Task SeedsWorker_IsRefusedAsInvalid_WhenItsOptionsAreNotUtf8()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await CreateAsync(db, "s");
        using SeedsSubscriptionClient worker = await SeedsSubscriptionClient.ConnectAsync(TcpEndPoint);
        await worker.SendAsync(SeedsSubscriptionClient.Header(db, 53_000));
        Assert.Equal("Ok", (await worker.ReceiveAsync())!.Value.GetProperty("Status").GetString());

        await worker.SendBytesAsync(Hostile("""{"SubscriptionName":"s\xFF","Strategy":"OpenIfFree"}"""));

        Assert.Equal("Invalid", (await worker.ExpectAsync("ConnectionStatus")).GetProperty("Status").GetString());
        Assert.Null(await worker.ReceiveAsync());
        await FolioApi.AssertServingAsync(_client);
    }

    /// <summary>The text's UTF-8 with each <c>\xFF</c> written in it replaced by the lone byte 0xFF, which no UTF-8 text holds.</summary>
    private static byte[] Hostile(string text)
    {
        var bytes = new List<byte>();
        string[] parts = text.Split(@"\xFF");
        for (int i = 0; i < parts.Length; i++)
        {
            if (i > 0)
                bytes.Add(0xFF);
            bytes.AddRange(Encoding.UTF8.GetBytes(parts[i]));
        }

        return [.. bytes];
    }

    private async Task CreateAsync(string db, string name)
    {
        using HttpResponseMessage put = await _client.PutAsync($"/databases/{db}/subscriptions", FolioApi.Json(JsonSerializer.Serialize(new { Name = name, Query = "from Orders" })));
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
    }
}
