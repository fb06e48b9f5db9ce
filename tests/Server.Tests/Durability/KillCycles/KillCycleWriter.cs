using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>
/// One writer of a kill-cycle run. It alone writes its documents, one operation at a time, so its model of their
/// acknowledged states is exact, and after a kill only its one unanswered write (<see cref="Pending"/>) is in doubt.
/// Operations: PUT, a conditional PUT (If-Match with the change vector it just read, or with a stale one the server
/// must refuse), DELETE, a bulk_docs batch of puts and deletes, and a bulk insert.
/// </summary>
internal sealed class KillCycleWriter
{
    private readonly int _number;
    private readonly KeyModel[] _keys;
    private readonly Random _random;
    private readonly KillCycleReport _report;
    private PendingWrite? _pending;
    private long _sequence;

    public KillCycleWriter(int number, KeyModel[] keys, Random random, KillCycleReport report)
    {
        _number = number;
        _keys = keys;
        _random = random;
        _report = report;
    }

    /// <summary>The documents this writer owns.</summary>
    public IReadOnlyList<KeyModel> Keys => _keys;

    /// <summary>The write sent and not answered: after a kill, the one whose outcome the read-back decides.</summary>
    public PendingWrite? Pending => Volatile.Read(ref _pending);

    /// <summary>Forgets the pending write once the read-back decided it.</summary>
    public void Resolved() => Volatile.Write(ref _pending, null);

    /// <summary>Writes until <paramref name="stop"/> (between operations) or until the server goes away.</summary>
    public async Task RunAsync(HttpClient client, string database, CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            int dice = _random.Next(100);
            bool answered = dice switch
            {
                < 35 => await PutAsync(client, database, Pick()),
                < 55 => await ConditionalAsync(client, database, Pick()),
                < 70 => await DeleteAsync(client, database, Pick()),
                < 90 => await BulkDocsAsync(client, database),
                _ => await BulkInsertAsync(client, database),
            };
            if (!answered)
                return;
        }
    }

    private async Task<bool> PutAsync(HttpClient client, string database, KeyModel key)
    {
        ItemVersion version = NextVersion();
        Begin(new PendingWrite("put", Atomic: false, MustNotApply: false, [(key, version)]));
        var answer = await SendAsync(client, new HttpRequestMessage(HttpMethod.Put, FolioApi.DocsUri(database, key.Id)) { Content = FolioApi.Json(version.ToJson()) });
        if (!Expect(answer, HttpStatusCode.Created, "PUT " + key.Id))
            return false;
        using JsonDocument body = JsonDocument.Parse(answer!.Value.Body);
        key.Set(version, body.RootElement.GetProperty("ChangeVector").GetString());
        Acknowledged("put");
        return true;
    }

    /// <summary>Reads the document (checking it is as last acknowledged), then writes it with If-Match.</summary>
    private async Task<bool> ConditionalAsync(HttpClient client, string database, KeyModel key)
    {
        var read = await SendAsync(client, new HttpRequestMessage(HttpMethod.Get, FolioApi.DocsUri(database, key.Id)));
        if (read is null)
            return false;
        if (read.Value.Status == HttpStatusCode.NotFound)
        {
            if (key.Acknowledged is not null)
                _report.Anomaly($"GET {key.Id} answered 404, last acknowledged {key.Acknowledged.Rev}");
            return await PutAsync(client, database, key);
        }

        if (read.Value.Status != HttpStatusCode.OK || read.Value.ETag is null)
        {
            _report.Anomaly($"GET {key.Id} answered {(int)read.Value.Status}: {read.Value.Body}");
            return false;
        }

        using (JsonDocument loaded = JsonDocument.Parse(read.Value.Body))
        {
            string? rev = loaded.RootElement.GetProperty("Results")[0].GetProperty("Rev").GetString();
            if (rev != key.Acknowledged?.Rev)
                _report.Anomaly($"GET {key.Id} read {rev}, last acknowledged {key.Acknowledged?.Rev ?? "absent"}");
        }

        string current = read.Value.ETag.Trim('"');
        bool stale = key.StaleChangeVector is not null && key.StaleChangeVector != current && _random.Next(5) == 0;
        ItemVersion version = NextVersion();
        Begin(new PendingWrite("conditional", Atomic: false, MustNotApply: stale, [(key, version)]));
        var request = new HttpRequestMessage(HttpMethod.Put, FolioApi.DocsUri(database, key.Id)) { Content = FolioApi.Json(version.ToJson()) };
        request.Headers.TryAddWithoutValidation("If-Match", "\"" + (stale ? key.StaleChangeVector : current) + "\"");
        var answer = await SendAsync(client, request);
        if (stale)
        {
            if (!Expect(answer, HttpStatusCode.Conflict, "stale If-Match PUT " + key.Id))
                return false;
            Acknowledged("conditional refused");
            return true;
        }

        if (!Expect(answer, HttpStatusCode.Created, "If-Match PUT " + key.Id))
            return false;
        using JsonDocument body = JsonDocument.Parse(answer!.Value.Body);
        key.Set(version, body.RootElement.GetProperty("ChangeVector").GetString());
        Acknowledged("conditional");
        return true;
    }

    private async Task<bool> DeleteAsync(HttpClient client, string database, KeyModel key)
    {
        Begin(new PendingWrite("delete", Atomic: false, MustNotApply: false, [(key, null)]));
        var answer = await SendAsync(client, new HttpRequestMessage(HttpMethod.Delete, FolioApi.DocsUri(database, key.Id)));
        if (!Expect(answer, HttpStatusCode.NoContent, "DELETE " + key.Id))
            return false;
        key.Set(null, null);
        Acknowledged("delete");
        return true;
    }

    private async Task<bool> BulkDocsAsync(HttpClient client, string database)
    {
        KeyModel[] keys = PickDistinct(_random.Next(2, 7));
        var changes = new (KeyModel, ItemVersion?)[keys.Length];
        var body = new StringBuilder("{\"Commands\":[");
        for (int i = 0; i < keys.Length; i++)
        {
            ItemVersion? version = _random.Next(4) == 0 ? null : NextVersion();
            changes[i] = (keys[i], version);
            body.Append(i == 0 ? "" : ",").Append(version is null
                ? $$"""{"Type":"DELETE","Id":"{{keys[i].Id}}"}"""
                : $$"""{"Type":"PUT","Id":"{{keys[i].Id}}","Document":{{version.ToJson()}}}""");
        }

        body.Append("]}");
        Begin(new PendingWrite("bulk_docs", Atomic: true, MustNotApply: false, changes));
        var answer = await SendAsync(client, new HttpRequestMessage(HttpMethod.Post, $"/databases/{database}/bulk_docs") { Content = FolioApi.Json(body.ToString()) });
        if (!Expect(answer, HttpStatusCode.Created, "bulk_docs"))
            return false;
        using JsonDocument results = JsonDocument.Parse(answer!.Value.Body);
        JsonElement items = results.RootElement.GetProperty("Results");
        for (int i = 0; i < changes.Length; i++)
        {
            (KeyModel key, ItemVersion? version) = changes[i];
            key.Set(version, version is null ? null : items[i].GetProperty("@change-vector").GetString());
        }

        Acknowledged("bulk_docs");
        return true;
    }

    /// <summary>A bulk insert commits in batches of its own choosing: cut short, any of its documents may be written.</summary>
    private async Task<bool> BulkInsertAsync(HttpClient client, string database)
    {
        KeyModel[] keys = PickDistinct(_random.Next(3, 11));
        var changes = new (KeyModel, ItemVersion?)[keys.Length];
        var body = new StringBuilder("[");
        for (int i = 0; i < keys.Length; i++)
        {
            ItemVersion version = NextVersion();
            changes[i] = (keys[i], version);
            body.Append(i == 0 ? "" : ",").Append($$"""{"Type":"PUT","Id":"{{keys[i].Id}}","Document":{{version.ToJson()}}}""");
        }

        body.Append(']');
        Begin(new PendingWrite("bulk_insert", Atomic: false, MustNotApply: false, changes));
        var answer = await SendAsync(client, new HttpRequestMessage(HttpMethod.Post, $"/databases/{database}/bulk_insert") { Content = FolioApi.Json(body.ToString()) });
        if (!Expect(answer, HttpStatusCode.Created, "bulk_insert"))
            return false;
        foreach ((KeyModel key, ItemVersion? version) in changes)
            key.Set(version, null);
        Acknowledged("bulk_insert");
        return true;
    }

    private void Begin(PendingWrite write) => Volatile.Write(ref _pending, write);

    private void Acknowledged(string kind)
    {
        Volatile.Write(ref _pending, null);
        _report.Count("writes acknowledged: " + kind);
        _report.Count("writes acknowledged");
    }

    /// <summary>
    /// False when there was no answer (the server went away: the pending write stays in doubt) or an unexpected one
    /// (an anomaly; the pending write stays in doubt too, and the read-back adopts what the server kept).
    /// </summary>
    private bool Expect((HttpStatusCode Status, string Body, string? ETag)? answer, HttpStatusCode expected, string what)
    {
        if (answer is null)
            return false;
        if (answer.Value.Status == expected)
            return true;
        _report.Anomaly($"{what} answered {(int)answer.Value.Status}, expected {(int)expected}: {answer.Value.Body}");
        return false;
    }

    /// <summary>The answer, or null when the request got none (refused connection, reset, the process killed).</summary>
    private static async Task<(HttpStatusCode Status, string Body, string? ETag)?> SendAsync(HttpClient client, HttpRequestMessage request)
    {
        try
        {
            using HttpResponseMessage response = await client.SendAsync(request);
            string body = await response.Content.ReadAsStringAsync();
            return (response.StatusCode, body, FolioApi.ETagOf(response));
        }
        catch (Exception e) when (ConnectionCut.IsCut(e))
        {
            return null;
        }
        finally
        {
            request.Dispose();
        }
    }

    private ItemVersion NextVersion() => new($"w{_number}-{++_sequence}", _random.Next(ItemVersion.Tags), _random.Next(1000));

    private KeyModel Pick() => _keys[_random.Next(_keys.Length)];

    private KeyModel[] PickDistinct(int count)
    {
        KeyModel[] shuffled = [.. _keys];
        _random.Shuffle(shuffled);
        return shuffled[..Math.Min(count, shuffled.Length)];
    }
}
