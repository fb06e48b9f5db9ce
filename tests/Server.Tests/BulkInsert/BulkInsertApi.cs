using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.BulkInsert;

/// <summary>Calls of the bulk insert endpoint and reads of what it stored.</summary>
public static class BulkInsertApi
{
    /// <summary>
    /// A client for whole streams: a stream of many megabytes legitimately outlasts the 30-second timeout
    /// meant to catch a hung request, so these tests bound the stream by its size instead.
    /// </summary>
    public static HttpClient StreamingClient(RunningServer server) =>
        new(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Server.Address, Timeout = TimeSpan.FromMinutes(15) };

    public static string Uri(string database) => $"/databases/{database}/bulk_insert";

    public static async Task<HttpResponseMessage> PostAsync(HttpClient client, string database, HttpContent content)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, Uri(database)) { Content = content };
        return await client.SendAsync(request);
    }

    /// <summary>Posts and asserts 201, returning the summary.</summary>
    public static async Task<JsonElement> InsertAsync(HttpClient client, string database, HttpContent content)
    {
        using HttpResponseMessage response = await PostAsync(client, database, content);
        string body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.Created, $"bulk_insert answered {(int)response.StatusCode}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }

    /// <summary>Every document whose id starts with <paramref name="prefix"/>, paged through the docs endpoint.</summary>
    public static async Task<List<JsonElement>> LoadAllAsync(HttpClient client, string database, string prefix)
    {
        var all = new List<JsonElement>();
        while (true)
        {
            JsonElement page = await FolioApi.GetJsonAsync(client, $"/databases/{database}/docs?startsWith={System.Uri.EscapeDataString(prefix)}&start={all.Count}&pageSize=1024");
            JsonElement results = page.GetProperty("Results");
            foreach (JsonElement document in results.EnumerateArray())
                all.Add(document.Clone());
            if (results.GetArrayLength() < 1024)
                return all;
        }
    }

    public static int IndexOf(JsonElement document) => document.GetProperty("Index").GetInt32();
}
