using System.Collections.Concurrent;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Stress;

/// <summary>
/// Drives a real server process with clients that query every way while others change what the queries
/// run on: auto indexes widened and retired, a static index replaced side by side, reset, deleted and
/// re-created, documents written and deleted, and a second database deleted and re-created. Every answer
/// is checked: a complete 2xx body, or a problem+json 4xx/5xx that is not an internal error; a dropped
/// connection, a timeout or a dead process is a failure.
/// </summary>
public sealed class StressHarness
{
    public const string Database = "stress";
    public const string ChurnDatabase = "stress-churn";
    public const string StaticIndex = "Orders/Stress";
    public const string TempIndex = "Orders/Temp";

    private static readonly string[] Statuses = ["open", "shipped", "late", "returned", "lost"];
    private static readonly string[] Colors = ["red", "green", "blue", "black", "white", "gold"];
    private static readonly string[] Words = ["late", "delivery", "fragile", "gift", "express", "damaged", "box", "refund", "quick", "slow"];
    private static readonly string[] WideningFields = ["A", "B", "C", "D", "Status", "Tags"];

    private readonly HttpClient _client;
    private readonly ConcurrentQueue<string> _failures = new();
    private readonly ConcurrentDictionary<string, int> _outcomes = new();
    private readonly CancellationTokenSource _lost = new();
    private long _checked;

    public StressHarness(HttpClient client) => _client = client;

    /// <summary>What went wrong, each with the request that got it.</summary>
    public IReadOnlyCollection<string> Failures => _failures;

    /// <summary>Answers by kind of request and status, e.g. <c>facet 200</c>.</summary>
    public IReadOnlyDictionary<string, int> Outcomes => _outcomes;

    public long Checked => Interlocked.Read(ref _checked);

    public static string Order(int i, Random random)
    {
        var notes = new StringBuilder();
        for (var w = 0; w < 6; w++)
            notes.Append(Words[random.Next(Words.Length)]).Append(' ');
        return JsonSerializer.Serialize(new Dictionary<string, object?>
        {
            ["Company"] = $"companies/{i % 40}",
            ["Total"] = Math.Round(random.NextDouble() * 1_000, 2),
            ["Status"] = Statuses[i % Statuses.Length],
            ["Tags"] = new[] { Colors[i % Colors.Length], Colors[(i / 7) % Colors.Length] },
            ["Notes"] = notes.ToString().TrimEnd(),
            ["A"] = "a" + (i % 3),
            ["B"] = "b" + (i % 5),
            ["C"] = i % 11,
            ["D"] = i % 2 == 0 ? null : "d",
            ["@metadata"] = new Dictionary<string, string> { ["@collection"] = "Orders" },
        });
    }

    /// <summary>Creates the database (if needed) with <paramref name="orders"/> orders and their companies, in batches of 2,000.</summary>
    public async Task SeedAsync(string database, int orders, int seed)
    {
        using (var create = await _client.PutAsync("/admin/databases", FolioApi.Json($$"""{"Name":"{{database}}"}""")))
        {
            if (create.StatusCode is not (HttpStatusCode.Created or HttpStatusCode.Conflict))
                throw new InvalidOperationException($"Creating {database} answered {(int)create.StatusCode}: {await create.Content.ReadAsStringAsync()}");
        }
        var random = new Random(seed);
        var commands = new StringBuilder();
        for (var c = 0; c < 40; c++)
            Append(commands, $"companies/{c}", "{\"Name\":\"Company " + c + "\",\"@metadata\":{\"@collection\":\"Companies\"}}");
        for (var i = 0; i < orders; i++)
        {
            Append(commands, $"orders/{i}", Order(i, random));
            if ((i + 1) % 2_000 == 0 || i == orders - 1)
            {
                using var response = await _client.PostAsync($"/databases/{database}/bulk_docs", FolioApi.Json($$"""{"Commands":[{{commands}}]}"""));
                if (response.StatusCode != HttpStatusCode.Created && response.StatusCode != HttpStatusCode.OK)
                    throw new InvalidOperationException($"Seeding {database} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
                commands.Clear();
            }
        }
    }

    private static void Append(StringBuilder commands, string id, string document)
    {
        if (commands.Length > 0)
            commands.Append(',');
        commands.Append($$"""{"Type":"PUT","Id":"{{id}}","Document":{{document}}}""");
    }

    /// <summary>Sends a request and checks its answer; returns the status, or 0 when there was no answer.</summary>
    public async Task<int> SendAsync(string kind, HttpMethod method, string uri, string? body = null)
    {
        Interlocked.Increment(ref _checked);
        using var request = new HttpRequestMessage(method, uri);
        if (body is not null)
            request.Content = FolioApi.Json(body);
        try
        {
            using var response = await _client.SendAsync(request, HttpCompletionOption.ResponseContentRead);
            var status = (int)response.StatusCode;
            _outcomes.AddOrUpdate($"{kind} {status}", 1, static (_, n) => n + 1);
            var text = await response.Content.ReadAsStringAsync();
            var mediaType = response.Content.Headers.ContentType?.MediaType;
            if (status is >= 200 and < 300)
            {
                if (text.Length > 0 && mediaType == "application/json")
                    JsonDocument.Parse(text).Dispose();
                return status;
            }
            if (mediaType != "application/problem+json")
            {
                Fail(kind, method, uri, $"{status} without problem+json ({mediaType}): {Cut(text)}");
                return status;
            }
            using var problem = JsonDocument.Parse(text);
            var type = problem.RootElement.TryGetProperty("type", out var t) ? t.GetString() : null;
            if (status >= 500 && type == "urn:folio:problem:internal-error")
                Fail(kind, method, uri, $"{status} internal error: {Cut(text)}");
            else if (!problem.RootElement.TryGetProperty("status", out var s) || s.GetInt32() != status)
                Fail(kind, method, uri, $"{status} with a problem whose status differs: {Cut(text)}");
            return status;
        }
        catch (Exception e) when (e is HttpRequestException or IOException or TaskCanceledException or JsonException)
        {
            Fail(kind, method, uri, $"no complete answer: {e.GetType().Name}: {e.Message}");
            // A lost server would fail every request after: stop the clients instead of spinning.
            if (e is not JsonException)
                _lost.Cancel();
            return 0;
        }
    }

    private void Fail(string kind, HttpMethod method, string uri, string what)
    {
        _outcomes.AddOrUpdate($"{kind} FAILED", 1, static (_, n) => n + 1);
        if (_failures.Count < 200)
            _failures.Enqueue($"{kind}: {method} {uri}: {what}");
    }

    private static string Cut(string text) => text.Length > 400 ? text[..400] + "…" : text;

    public Task<int> QueryAsync(string kind, string database, string query, string? parameters = null) =>
        SendAsync(kind, HttpMethod.Post, $"/databases/{database}/queries",
            parameters is null
                ? JsonSerializer.Serialize(new { Query = query })
                : $$"""{"Query":{{JsonSerializer.Serialize(query)}},"QueryParameters":{{parameters}}}""");

    /// <summary>One query of a kind picked at random: filters, sorts, facets, streams, includes, full-text, a static index, direct reads.</summary>
    public Task<int> RandomQueryAsync(Random random, string database)
    {
        var on = database == Database ? "" : database + ":";
        switch (random.Next(10))
        {
            case 0:
                return QueryAsync(on + "filter", database, "from Orders where Total > $t and Status = $s", $$"""{"t":{{random.Next(900)}},"s":"{{Statuses[random.Next(Statuses.Length)]}}"}""");
            case 1:
                return QueryAsync(on + "sort", database, "from Orders where Status != 'zz' order by Total as double desc limit 20");
            case 2:
                return QueryAsync(on + "facet", database, "from Orders select facet(Status), facet(Company)");
            case 3:
                return QueryAsync(on + "range-facet", database, "from Orders where Tags = 'red' select facet(Total < 100, Total between 100 and 500, Total > 500)");
            case 4:
                return SendAsync(on + "stream", HttpMethod.Get, $"/databases/{database}/streams/queries?query={Uri.EscapeDataString($"from Orders where Tags = '{Colors[random.Next(Colors.Length)]}' and C = {random.Next(11)}")}");
            case 5:
                return QueryAsync(on + "include", database, "from Orders where Status = 'open' limit 5 include Company");
            case 6:
                return QueryAsync(on + "search", database, $"from Orders where search(Notes, '{Words[random.Next(Words.Length)]} {Words[random.Next(Words.Length)]}') limit 10");
            case 7:
                return QueryAsync(on + "static", database, $"from index '{StaticIndex}' where Company = 'companies/{random.Next(40)}' limit 10");
            case 8:
                return SendAsync(on + "stream-static", HttpMethod.Get, $"/databases/{database}/streams/queries?query={Uri.EscapeDataString($"from index '{StaticIndex}' order by Total as double")}");
            default:
                return QueryAsync(on + "direct", database, random.Next(2) == 0 ? "from Orders limit 10" : $"from Orders where id() = 'orders/{random.Next(100)}'");
        }
    }

    /// <summary>A query whose <c>where</c> has a random set of fields, so the collection's auto index keeps widening (and retiring the narrower ones).</summary>
    public Task<int> WideningQueryAsync(Random random, string database)
    {
        var fields = new List<string>(WideningFields);
        var count = 1 + random.Next(fields.Count);
        var clauses = new List<string>();
        for (var i = 0; i < count; i++)
        {
            var pick = random.Next(fields.Count);
            clauses.Add($"{fields[pick]} != 'zz'");
            fields.RemoveAt(pick);
        }
        return QueryAsync("widen", database, "from Orders where " + string.Join(" and ", clauses) + " select facet(Status)");
    }

    public static string StaticDefinition(int variant) =>
        "{\"Indexes\":[{\"Name\":\"" + StaticIndex + "\",\"Collections\":[\"Orders\"],\"Fields\":{\"Company\":{\"Path\":\"Company\"},\"Total\":{\"Path\":\"Total\",\"Type\":\"Double\"},\"Tags\":{\"Path\":\"Tags[]\"}"
        + (variant % 2 == 1 ? ",\"Status\":{\"Path\":\"Status\"}" : "") + "}}]}";

    /// <summary>
    /// One change to the indexes: a replaced definition, a reset, a temporary index deleted or made, an
    /// auto index deleted or reset (so queries make narrower ones again, which widening retires again), or
    /// a widening query.
    /// </summary>
    public async Task ChurnIndexesAsync(Random random, string database, int step)
    {
        switch (random.Next(7))
        {
            case 0:
                await SendAsync("replace", HttpMethod.Put, $"/databases/{database}/indexes", StaticDefinition(step));
                break;
            case 1:
                await SendAsync("reset", HttpMethod.Post, $"/databases/{database}/indexes/reset?name={Uri.EscapeDataString(random.Next(2) == 0 ? StaticIndex : TempIndex)}");
                break;
            case 2:
                if (random.Next(2) == 0)
                {
                    await SendAsync("delete-index", HttpMethod.Delete, $"/databases/{database}/indexes?name={Uri.EscapeDataString(TempIndex)}");
                    break;
                }
                await SendAsync("create-index", HttpMethod.Put, $"/databases/{database}/indexes",
                    $$"""{"Indexes":[{"Name":"{{TempIndex}}","Collections":["Orders"],"Fields":{"Notes":{"Path":"Notes","Search":true},"B":{"Path":"B"}""" + "}}]}");
                await QueryAsync("temp", database, $"from index '{TempIndex}' where search(Notes, 'gift') limit 5");
                break;
            case 3:
                if (await RandomAutoIndexAsync(random, database) is { } auto)
                {
                    var reset = random.Next(3) == 0;
                    await SendAsync(reset ? "reset-auto" : "delete-auto", reset ? HttpMethod.Post : HttpMethod.Delete,
                        $"/databases/{database}/indexes{(reset ? "/reset" : "")}?name={Uri.EscapeDataString(auto)}");
                }
                break;
            default:
                await WideningQueryAsync(random, database);
                break;
        }
    }

    private async Task<string?> RandomAutoIndexAsync(Random random, string database)
    {
        try
        {
            using var response = await _client.GetAsync($"/databases/{database}/indexes");
            if (!response.IsSuccessStatusCode)
                return null;
            using var list = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
            var names = new List<string>();
            foreach (var index in list.RootElement.GetProperty("Results").EnumerateArray())
            {
                var name = index.GetProperty("Name").GetString()!;
                if (name.StartsWith("Auto/", StringComparison.Ordinal))
                    names.Add(name);
            }
            return names.Count == 0 ? null : names[random.Next(names.Count)];
        }
        catch (Exception e) when (e is HttpRequestException or IOException or TaskCanceledException or JsonException)
        {
            Fail("list-indexes", HttpMethod.Get, $"/databases/{database}/indexes", $"no complete answer: {e.GetType().Name}: {e.Message}");
            return null;
        }
    }

    /// <summary>One write: an updated order, a batch of them, or a delete.</summary>
    public async Task WriteAsync(Random random, string database, int orders)
    {
        var i = random.Next(orders);
        switch (random.Next(4))
        {
            case 0:
            case 1:
                await SendAsync("put", HttpMethod.Put, FolioApi.DocsUri(database, $"orders/{i}"), Order(i, random));
                break;
            case 2:
                var commands = new StringBuilder();
                for (var k = 0; k < 50; k++)
                {
                    var id = random.Next(orders);
                    Append(commands, $"orders/{id}", Order(id, random));
                }
                await SendAsync("bulk", HttpMethod.Post, $"/databases/{database}/bulk_docs", $$"""{"Commands":[{{commands}}]}""");
                break;
            default:
                await SendAsync("delete", HttpMethod.Delete, FolioApi.DocsUri(database, $"orders/{i}"));
                break;
        }
    }

    /// <summary>Deletes the churn database and makes it again with documents and an auto index, while other clients query it.</summary>
    public async Task ChurnDatabaseAsync(int round)
    {
        await SendAsync("drop-db", HttpMethod.Delete, $"/admin/databases?name={ChurnDatabase}");
        await SendAsync("create-db", HttpMethod.Put, "/admin/databases", $$"""{"Name":"{{ChurnDatabase}}"}""");
        var random = new Random(round);
        var commands = new StringBuilder();
        for (var i = 0; i < 500; i++)
            Append(commands, $"orders/{i}", Order(i, random));
        await SendAsync("churn-bulk", HttpMethod.Post, $"/databases/{ChurnDatabase}/bulk_docs", $$"""{"Commands":[{{commands}}]}""");
        await QueryAsync("churn-query", ChurnDatabase, "from Orders where Status = 'late' select facet(Company)");
    }

    /// <summary>Runs <paramref name="work"/> on <paramref name="clients"/> clients until the deadline, <paramref name="stop"/>, or a request without an answer.</summary>
    public Task RunClientsAsync(int clients, DateTime deadline, int seed, Func<Random, int, Task> work, CancellationToken stop = default)
    {
        var tasks = new Task[clients];
        for (var c = 0; c < clients; c++)
        {
            var random = new Random(seed + c);
            tasks[c] = Task.Run(async () =>
            {
                for (var step = 0; DateTime.UtcNow < deadline && !stop.IsCancellationRequested && !_lost.IsCancellationRequested; step++)
                    await work(random, step);
            });
        }
        return Task.WhenAll(tasks);
    }

    public string Summary()
    {
        var lines = new List<string>();
        foreach (var (outcome, count) in _outcomes)
            lines.Add($"{outcome}: {count}");
        lines.Sort(StringComparer.Ordinal);
        return $"{Checked} requests checked{Environment.NewLine}{string.Join(Environment.NewLine, lines)}";
    }
}
