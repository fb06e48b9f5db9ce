using System.Net;
using System.Text;
using System.Text.Json;

namespace Folio.Server.Tests.Support;

/// <summary>Small REST helpers so tests read as the API calls they make.</summary>
public static class FolioApi
{
    public static string NewDatabaseName() => "db-" + Guid.NewGuid().ToString("N")[..12];

    public static async Task<string> CreateDatabaseAsync(HttpClient client, string? name = null)
    {
        name ??= NewDatabaseName();
        using HttpResponseMessage response = await client.PutAsync("/admin/databases", Json($$"""{"Name":"{{name}}"}"""));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return name;
    }

    public static StringContent Json(string json) => new(json, Encoding.UTF8, "application/json");

    public static string DocsUri(string database, string id) => $"/databases/{database}/docs?id={Uri.EscapeDataString(id)}";

    public static async Task<HttpResponseMessage> PutAsync(HttpClient client, string database, string id, string json, string? ifMatch = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Put, DocsUri(database, id)) { Content = Json(json) };
        if (ifMatch is not null)
            request.Headers.TryAddWithoutValidation("If-Match", ifMatch);
        return await client.SendAsync(request);
    }

    /// <summary>Stores a document and returns the answer's Id and ChangeVector, asserting 201.</summary>
    public static async Task<(string Id, string ChangeVector)> StoreAsync(HttpClient client, string database, string id, string json)
    {
        using HttpResponseMessage response = await PutAsync(client, database, id, json);
        string body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.Created, $"PUT {id} answered {(int)response.StatusCode}: {body}");
        using JsonDocument answer = JsonDocument.Parse(body);
        return (answer.RootElement.GetProperty("Id").GetString()!, answer.RootElement.GetProperty("ChangeVector").GetString()!);
    }

    public static async Task<JsonElement> GetJsonAsync(HttpClient client, string uri, HttpStatusCode expected = HttpStatusCode.OK)
    {
        using HttpResponseMessage response = await client.GetAsync(uri);
        string body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == expected, $"GET {uri} answered {(int)response.StatusCode}, expected {(int)expected}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }

    /// <summary>The single document of a GET by id, or null when it answers 404.</summary>
    /// <summary>Runs <paramref name="rql"/> waiting for non-stale results, asserts a 200 (naming the query otherwise) and answers the whole answer.</summary>
    public static async Task<JsonElement> QueryAsync(HttpClient client, string database, string rql, object? parameters = null)
    {
        using var response = await client.PostAsync($"/databases/{database}/queries", Json(JsonSerializer.Serialize(new { Query = rql, QueryParameters = parameters, WaitForNonStaleResults = true })));
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, rql + ": " + text);
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    public static async Task<JsonElement?> LoadAsync(HttpClient client, string database, string id)
    {
        using HttpResponseMessage response = await client.GetAsync(DocsUri(database, id));
        if (response.StatusCode == HttpStatusCode.NotFound)
            return null;
        string body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"GET {id} answered {(int)response.StatusCode}: {body}");
        JsonElement results = JsonDocument.Parse(body).RootElement.GetProperty("Results");
        Assert.Equal(1, results.GetArrayLength());
        return results[0].Clone();
    }

    public static async Task<DatabaseStats> StatsAsync(HttpClient client, string database)
    {
        JsonElement stats = await GetJsonAsync(client, $"/databases/{database}/stats");
        return new DatabaseStats(
            stats.GetProperty("CountOfDocuments").GetInt64(),
            stats.GetProperty("LastDocEtag").GetInt64(),
            stats.GetProperty("CountOfTombstones").GetInt64());
    }

    public static string? ETagOf(HttpResponseMessage response) =>
        response.Headers.TryGetValues("ETag", out IEnumerable<string>? values) ? values.Single() : null;

    public static async Task AssertServingAsync(HttpClient client)
    {
        using HttpResponseMessage health = await client.GetAsync("/healthz");
        Assert.Equal(HttpStatusCode.OK, health.StatusCode);
    }
}

/// <summary>The parts of <c>/stats</c> that change on every write, to prove a request wrote nothing.</summary>
public readonly record struct DatabaseStats(long CountOfDocuments, long LastDocEtag, long CountOfTombstones);
