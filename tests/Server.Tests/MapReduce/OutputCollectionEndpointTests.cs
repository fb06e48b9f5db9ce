using System.Diagnostics;
using System.Net;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.MapReduce;

/// <summary>A map/reduce index's OutputCollection over HTTP: the group rows appear as documents, follow the orders, survive a restart and go with the index; bad ones are refused.</summary>
public sealed class OutputCollectionEndpointTests : IAsyncLifetime
{
    private const string ByCompany = """{"Name":"Orders/ByCompany","Collections":["Orders"],"Reduce":{"GroupBy":["Company"],"Aggregations":{"Count":{"Op":"Count"},"Freight":{"Op":"Sum","Path":"Freight"}}},"OutputCollection":"CompanyTotals"}""";
    private readonly string _dataDir = RunningServer.NewDataDir();
    private RunningServer _server = null!;
    private string _db = "";

    private HttpClient Client => _server.Client;

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartOnAsync(_dataDir);
        _db = await CreateDatabaseAsync(Client);
        var commands = new List<object>();
        for (var i = 1; i <= 12; i++)
            commands.Add(new { Type = "PUT", Id = $"orders/{i}", Document = new { Company = $"companies/{i % 3}", Freight = i } });
        using var response = await Client.PostAsync($"/databases/{_db}/bulk_docs", FolioApi.Json(JsonSerializer.Serialize(new { Commands = commands })));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        RunningServer.DeleteDirectory(_dataDir);
    }

    /// <summary>The id the README gives a group's document: the collection, a slash and the first 16 bytes of the SHA-256 of the group key in hex.</summary>
    private static string OutputId(string groupKey) =>
        "CompanyTotals/" + Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(groupKey)).AsSpan(0, 16));

    private async Task PutIndexAsync(string definition)
    {
        using var response = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json($$"""{"Indexes":[{{definition}}]}"""));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    private async Task WaitForIndexAsync()
    {
        using var response = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json("""{"Query":"from index 'Orders/ByCompany'","WaitForNonStaleResults":true}"""));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    /// <summary>The output document of a group, without its metadata, or null when there is none.</summary>
    private async Task<string?> OutputAsync(string company)
    {
        var document = await LoadAsync(Client, _db, OutputId($"[\"{company}\"]"));
        if (document is not { } found)
            return null;
        Assert.Equal("CompanyTotals", found.GetProperty("@metadata").GetProperty("@collection").GetString());
        var fields = new List<string>();
        foreach (var property in found.EnumerateObject())
        {
            if (property.Name != "@metadata")
                fields.Add($"{property.Name}={property.Value.GetRawText()}");
        }
        return string.Join(",", fields);
    }

    private async Task<long> CountOfOutputsAsync()
    {
        using var response = await Client.PostAsync($"/databases/{_db}/queries", FolioApi.Json("""{"Query":"from CompanyTotals","WaitForNonStaleResults":true}"""));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("TotalResults").GetInt64();
    }

    private static async Task WaitUntilAsync(Func<Task<bool>> condition, string what)
    {
        var started = Stopwatch.GetTimestamp();
        while (!await condition())
        {
            Assert.True(Stopwatch.GetElapsedTime(started) < TestTimeouts.Default, $"Timed out waiting until {what}.");
            await Task.Delay(20);
        }
    }

    [Fact]
    public async Task OutputCollection_KeepsAGroupDocument_InStepWithTheOrders()
    {
        await PutIndexAsync(ByCompany);
        await WaitForIndexAsync();
        Assert.Equal("Company=\"companies/0\",Count=4,Freight=30", await OutputAsync("companies/0"));
        Assert.Equal("Company=\"companies/1\",Count=4,Freight=22", await OutputAsync("companies/1"));
        Assert.Equal(3, await CountOfOutputsAsync());

        using (var moved = await PutAsync(Client, _db, "orders/3", """{"Company":"companies/1","Freight":100}"""))
            Assert.Equal(HttpStatusCode.Created, moved.StatusCode);
        foreach (var id in new[] { "orders/2", "orders/5", "orders/8", "orders/11" })
        {
            using var deleted = await Client.DeleteAsync(DocsUri(_db, id));
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        }
        await WaitForIndexAsync();
        Assert.Equal("Company=\"companies/0\",Count=3,Freight=27", await OutputAsync("companies/0"));
        Assert.Equal("Company=\"companies/1\",Count=5,Freight=122", await OutputAsync("companies/1"));
        Assert.Null(await OutputAsync("companies/2"));
        Assert.Equal(2, await CountOfOutputsAsync());

        var definitions = await GetJsonAsync(Client, $"/databases/{_db}/indexes?name=Orders/ByCompany");
        Assert.Equal("CompanyTotals", definitions.GetProperty("Results")[0].GetProperty("OutputCollection").GetString());
    }

    [Fact]
    public async Task OutputCollection_SurvivesARestart_AndGoesWithTheIndex()
    {
        await PutIndexAsync(ByCompany);
        await WaitForIndexAsync();
        await _server.StopAsync();
        _server = await RunningServer.StartOnAsync(_dataDir);
        Assert.Equal("Company=\"companies/2\",Count=4,Freight=26", await OutputAsync("companies/2"));
        using (var added = await PutAsync(Client, _db, "orders/100", """{"Company":"companies/2","Freight":4}"""))
            Assert.Equal(HttpStatusCode.Created, added.StatusCode);
        await WaitForIndexAsync();
        Assert.Equal("Company=\"companies/2\",Count=5,Freight=30", await OutputAsync("companies/2"));

        using (var deleted = await Client.DeleteAsync($"/databases/{_db}/indexes?name=Orders/ByCompany"))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        await WaitUntilAsync(async () => await CountOfOutputsAsync() == 0, "the deleted index's documents are gone");
        Assert.Null(await OutputAsync("companies/2"));
    }

    [Theory]
    [InlineData(""""{"Name":"Bad","Collections":["Orders"],"Reduce":{"GroupBy":["Company"]},"OutputCollection":"orders"}"""", "is one of the collections index 'Bad' reads")]
    [InlineData(""""{"Name":"Bad","Collections":["Orders"],"Fields":{"Company":{}},"OutputCollection":"Totals"}"""", "needs a map/reduce index")]
    [InlineData(""""{"Name":"Bad","Collections":["Lines"],"Reduce":{"GroupBy":["Product"]},"OutputCollection":"CompanyTotals"}"""", "written by index 'Orders/ByCompany' already")]
    [InlineData(""""{"Name":"Bad","Collections":["CompanyTotals"],"Reduce":{"GroupBy":["Company"]},"OutputCollection":"Orders"}"""", "back into the collections it reads")]
    [InlineData(""""{"Name":"Bad","Collections":["Lines"],"Reduce":{"GroupBy":["Product"]},"OutputCollection":"Orders"}"""", "holds 12 documents no index wrote")]
    public async Task PutIndex_Answers400_WhenTheOutputCollectionCannotTakeTheResults(string definition, string message)
    {
        await PutIndexAsync(ByCompany);
        using var response = await Client.PutAsync($"/databases/{_db}/indexes", FolioApi.Json($$"""{"Indexes":[{{definition}}]}"""));
        var problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, ProblemTypes.InvalidIndexDefinition);
        Assert.Contains(message, problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        var indexes = await GetJsonAsync(Client, $"/databases/{_db}/indexes");
        Assert.DoesNotContain(indexes.GetProperty("Results").EnumerateArray(), i => i.GetProperty("Name").GetString() == "Bad");
    }
}
