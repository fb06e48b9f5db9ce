using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Histories;

/// <summary>
/// One of the clients of a history run: one operation at a time, chosen at random among single reads, conditional
/// writes, batches, multi-id loads and queries waiting for non-stale results, each recorded as invoked and completed.
/// It remembers the last version it saw of each document to make its compare-and-sets, and forgets it when a write
/// is refused or cut. Requests are never cancelled by the test: an answer, an error or the kill ends them.
/// </summary>
internal sealed class HistoryClient(int id, string database, KeySpace keys, HistoryRecorder recorder, ServerHolder servers, Random random)
{
    private readonly Dictionary<string, (string ChangeVector, string Value)> _known = new(StringComparer.Ordinal);
    private int _sequence;

    /// <summary>Runs operations until <paramref name="stop"/>, finishing the one under way.</summary>
    public async Task RunAsync(CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            ServerProcess server;
            try
            {
                server = await servers.UpAsync().WaitAsync(stop);
            }
            catch (OperationCanceledException)
            {
                return;
            }

            int dice = random.Next(100);
            string key = keys.Keys[random.Next(keys.Keys.Count)];
            if (dice < 20 || (dice < 50 && !_known.ContainsKey(key)))
                await ReadAsync(server.Client, key);
            else if (dice < 50)
                await CompareAndSetAsync(server.Client, key);
            else if (dice < 70)
                await BatchAsync(server.Client, keys.Pick(random, random.Next(2, 4)));
            else if (dice < 85)
                await MultiReadAsync(server.Client, keys.Pick(random, random.Next(2, 5)));
            else
                await QueryAsync(server.Client);
        }
    }

    /// <summary>Writes every key blindly once, before the clients start; the run cannot go on if one fails.</summary>
    public async Task SeedAsync()
    {
        ServerProcess server = await servers.UpAsync();
        foreach (string key in keys.Keys)
        {
            var write = new KeyWrite(key, NextValue(), null);
            HistoryOperation operation = recorder.Invoke(id, OperationKind.Write, [write]);
            using HttpResponseMessage response = await FolioApi.PutAsync(server.Client, database, key, Body(write, null));
            string body = await response.Content.ReadAsStringAsync();
            Assert.True(response.StatusCode == HttpStatusCode.Created, $"Seeding {key} answered {(int)response.StatusCode}: {body}");
            CompleteWrite(operation, [JsonDocument.Parse(body).RootElement.GetProperty("ChangeVector").GetString()!]);
        }
    }

    /// <summary>Reads every key in one snapshot, once nothing else runs: what survived.</summary>
    public async Task FinalReadAsync()
    {
        ServerProcess server = await servers.UpAsync();
        HistoryOperation operation = await LoadAsync(server.Client, OperationKind.FinalRead, [.. keys.Keys]);
        Assert.True(operation.Outcome == OperationOutcome.Ok, $"The final read failed: {operation}");
    }

    private async Task ReadAsync(HttpClient client, string key)
    {
        HistoryOperation operation = recorder.Invoke(id, OperationKind.Read, keys: [key]);
        try
        {
            using HttpResponseMessage response = await client.GetAsync(FolioApi.DocsUri(database, key));
            string body = await response.Content.ReadAsStringAsync();
            if (response.StatusCode == HttpStatusCode.NotFound)
            {
                CompleteRead(operation, []);
                return;
            }

            if (response.StatusCode != HttpStatusCode.OK)
            {
                HistoryRecorder.Complete(operation, OperationOutcome.Failed, Status(response, body));
                return;
            }

            CompleteRead(operation, Documents(body));
        }
        catch (Exception e) when (ConnectionCut.IsCut(e))
        {
            Cut(operation, e);
        }
    }

    private async Task MultiReadAsync(HttpClient client, List<string> ids) => await LoadAsync(client, OperationKind.MultiRead, ids);

    private async Task<HistoryOperation> LoadAsync(HttpClient client, OperationKind kind, List<string> ids)
    {
        HistoryOperation operation = recorder.Invoke(id, kind, keys: ids);
        var uri = new StringBuilder($"/databases/{database}/docs?");
        foreach (string key in ids)
            uri.Append("id=").Append(Uri.EscapeDataString(key)).Append('&');
        try
        {
            using HttpResponseMessage response = await client.GetAsync(uri.ToString(0, uri.Length - 1));
            string body = await response.Content.ReadAsStringAsync();
            if (response.StatusCode != HttpStatusCode.OK)
                HistoryRecorder.Complete(operation, OperationOutcome.Failed, Status(response, body));
            else
                CompleteRead(operation, Documents(body));
        }
        catch (Exception e) when (ConnectionCut.IsCut(e))
        {
            Cut(operation, e);
        }

        return operation;
    }

    /// <summary>
    /// A query by group through its auto index, waiting for non-stale results (which must then hold the whole group),
    /// or one over the whole collection, read straight from the documents (which must hold every key).
    /// </summary>
    private async Task QueryAsync(HttpClient client)
    {
        bool byGroup = random.Next(4) > 0;
        int group = random.Next(keys.Groups);
        List<string> expected = byGroup ? keys.InGroup(group) : [.. keys.Keys];
        string query = byGroup
            ? $$"""{"Query":"from registers where Team = $g","QueryParameters":{"g":"{{KeySpace.GroupName(group)}}"},"WaitForNonStaleResults":true,"WaitForNonStaleResultsTimeout":"00:00:10"}"""
            : """{"Query":"from registers"}""";
        HistoryOperation operation = recorder.Invoke(id, OperationKind.Query, keys: expected);
        try
        {
            using HttpResponseMessage response = await client.PostAsync($"/databases/{database}/queries", FolioApi.Json(query));
            string body = await response.Content.ReadAsStringAsync();
            if (response.StatusCode != HttpStatusCode.OK)
            {
                HistoryRecorder.Complete(operation, OperationOutcome.Failed, Status(response, body));
                return;
            }

            using JsonDocument answer = JsonDocument.Parse(body);
            if (answer.RootElement.GetProperty("IsStale").GetBoolean())
            {
                // A stale index may not hold every document of the group yet, so the answer proves nothing.
                HistoryRecorder.Complete(operation, OperationOutcome.Failed, "stale");
                return;
            }

            CompleteRead(operation, Documents(body));
        }
        catch (Exception e) when (ConnectionCut.IsCut(e))
        {
            Cut(operation, e);
        }
    }

    private async Task CompareAndSetAsync(HttpClient client, string key)
    {
        (string changeVector, string expected) = _known[key];
        var write = new KeyWrite(key, NextValue(), expected);
        HistoryOperation operation = recorder.Invoke(id, OperationKind.Write, [write]);
        try
        {
            using HttpResponseMessage response = await FolioApi.PutAsync(client, database, key, Body(write, null), "\"" + changeVector + "\"");
            string body = await response.Content.ReadAsStringAsync();
            if (response.StatusCode == HttpStatusCode.Created)
                CompleteWrite(operation, [JsonDocument.Parse(body).RootElement.GetProperty("ChangeVector").GetString()!]);
            else
                Refuse(operation, response, body);
        }
        catch (Exception e) when (ConnectionCut.IsCut(e))
        {
            Cut(operation, e);
        }
    }

    /// <summary>Two or three documents in one <c>bulk_docs</c>, each conditional on the version last seen when one was.</summary>
    private async Task BatchAsync(HttpClient client, List<string> batchKeys)
    {
        string batch = $"b{id}-{++_sequence}";
        var writes = new List<KeyWrite>(batchKeys.Count);
        var changeVectors = new List<string?>(batchKeys.Count);
        foreach (string key in batchKeys)
        {
            bool conditional = _known.TryGetValue(key, out var known) && random.Next(4) > 0;
            writes.Add(new KeyWrite(key, NextValue(), conditional ? known.Value : null));
            changeVectors.Add(conditional ? known.ChangeVector : null);
        }

        var commands = new StringBuilder("""{"Commands":[""");
        for (int i = 0; i < writes.Count; i++)
        {
            string condition = changeVectors[i] is { } cv ? $",\"ChangeVector\":\"{cv}\"" : "";
            commands.Append(i == 0 ? "" : ",").Append($$"""{"Type":"PUT","Id":"{{writes[i].Key}}","Document":{{Body(writes[i], batch)}}{{condition}}}""");
        }

        commands.Append("]}");
        HistoryOperation operation = recorder.Invoke(id, OperationKind.Batch, writes, batch: batch);
        try
        {
            using HttpResponseMessage response = await client.PostAsync($"/databases/{database}/bulk_docs", FolioApi.Json(commands.ToString()));
            string body = await response.Content.ReadAsStringAsync();
            if (response.StatusCode != HttpStatusCode.Created)
            {
                Refuse(operation, response, body);
                return;
            }

            using JsonDocument answer = JsonDocument.Parse(body);
            var results = new List<string>();
            foreach (JsonElement result in answer.RootElement.GetProperty("Results").EnumerateArray())
                results.Add(result.GetProperty("@change-vector").GetString()!);
            CompleteWrite(operation, results);
        }
        catch (Exception e) when (ConnectionCut.IsCut(e))
        {
            Cut(operation, e);
        }
    }

    private string Body(KeyWrite write, string? batch) =>
        JsonSerializer.Serialize(new { W = write.Value, B = batch, Team = keys.GroupOf(write.Key) });

    private string NextValue() => $"c{id}-{++_sequence}";

    private void CompleteWrite(HistoryOperation operation, List<string> changeVectors)
    {
        var etags = new long[changeVectors.Count];
        for (int i = 0; i < etags.Length; i++)
        {
            etags[i] = EtagOf(changeVectors[i]);
            _known[operation.Writes[i].Key] = (changeVectors[i], operation.Writes[i].Value);
        }

        operation.WriteEtags = etags;
        HistoryRecorder.Complete(operation, OperationOutcome.Ok);
    }

    /// <summary>A 409 is a definite refusal; any other answer (a 500, a 503 while shutting down) leaves the write unknown.</summary>
    private void Refuse(HistoryOperation operation, HttpResponseMessage response, string body)
    {
        foreach (KeyWrite write in operation.Writes)
            _known.Remove(write.Key);
        if (response.StatusCode == HttpStatusCode.Conflict)
            HistoryRecorder.Complete(operation, OperationOutcome.Failed, Status(response, body));
        else
            HistoryRecorder.Lose(operation, Status(response, body));
    }

    private void Cut(HistoryOperation operation, Exception e)
    {
        foreach (KeyWrite write in operation.Writes)
            _known.Remove(write.Key);
        if (e is HttpRequestException { InnerException: SocketException { SocketErrorCode: SocketError.ConnectionRefused } })
            HistoryRecorder.Complete(operation, OperationOutcome.NotSent, "connection refused");
        else
            HistoryRecorder.Lose(operation, e.GetType().Name);
    }

    private void CompleteRead(HistoryOperation operation, List<(Observed Seen, string ChangeVector)> documents)
    {
        var seen = new List<Observed>(documents.Count);
        foreach ((Observed observed, string changeVector) in documents)
        {
            seen.Add(observed);
            if (observed.Value is not null)
                _known[observed.Key] = (changeVector, observed.Value);
        }

        operation.Reads = seen;
        HistoryRecorder.Complete(operation, OperationOutcome.Ok);
    }

    /// <summary>The documents of a <c>{"Results":[…]}</c> answer (nulls, for missing ids, left out).</summary>
    private static List<(Observed, string)> Documents(string body)
    {
        using JsonDocument answer = JsonDocument.Parse(body);
        var documents = new List<(Observed, string)>();
        foreach (JsonElement document in answer.RootElement.GetProperty("Results").EnumerateArray())
        {
            if (document.ValueKind == JsonValueKind.Null)
                continue;
            JsonElement metadata = document.GetProperty("@metadata");
            string changeVector = metadata.GetProperty("@change-vector").GetString()!;
            string? batch = document.TryGetProperty("B", out JsonElement b) && b.ValueKind == JsonValueKind.String ? b.GetString() : null;
            var observed = new Observed(metadata.GetProperty("@id").GetString()!, document.GetProperty("W").GetString(), batch, EtagOf(changeVector));
            documents.Add((observed, changeVector));
        }

        return documents;
    }

    /// <summary>The etag in a change vector <c>A:{etag}-{database id}</c>.</summary>
    private static long EtagOf(string changeVector)
    {
        int colon = changeVector.IndexOf(':', StringComparison.Ordinal);
        int dash = changeVector.IndexOf('-', colon);
        return long.Parse(changeVector.AsSpan(colon + 1, dash - colon - 1), System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>The status and the start of the problem's text, to tell a refusal's reason in a kept history.</summary>
    private static string Status(HttpResponseMessage response, string body) =>
        $"HTTP {(int)response.StatusCode}: {(body.Length > 300 ? body[..300] : body)}";
}
