using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>
/// The checks after a restart: every document in its last acknowledged state (or the state its write in doubt gives
/// it, a batch all or nothing); each index's answers equal to what the documents read back say; the subscription and
/// the changes feed having received each document's current state.
/// </summary>
internal static class KillCycleChecks
{
    public const string FolioIndex = "Items/Folio";
    public const string LuceneIndex = "Items/Lucene";
    public const string ReduceIndex = "Items/ByTag";

    public const string IndexDefinitions = """
        {"Indexes":[
          {"Name":"Items/Folio","Collections":["Items"],"SearchEngine":"Folio","Fields":{"Tag":{},"V":{"Type":"Long"}}},
          {"Name":"Items/Lucene","Collections":["Items"],"SearchEngine":"Lucene","Fields":{"Tag":{},"V":{"Type":"Long"}}},
          {"Name":"Items/ByTag","Collections":["Items"],"Reduce":{"GroupBy":["Tag"],"Aggregations":{"Count":{"Op":"Count"},"Sum":{"Op":"Sum","Path":"V"}}}}
        ]}
        """;

    private static readonly TimeSpan CatchUp = TimeSpan.FromMinutes(2);

    /// <summary>
    /// Reads every document back, compares it with the writers' models and adopts what the server kept for each write
    /// in doubt. Answers the documents, by id.
    /// </summary>
    public static async Task<Dictionary<string, StoredItem>> CheckDocumentsAsync(HttpClient client, string database, IReadOnlyList<KillCycleWriter> writers, KillCycleReport report)
    {
        Dictionary<string, StoredItem> stored = await ReadAllAsync(client, database);
        var owned = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (KillCycleWriter writer in writers)
        {
            PendingWrite? pending = writer.Pending;
            int applied = 0, notApplied = 0;
            foreach (KeyModel key in writer.Keys)
            {
                owned.Add(key.Id);
                stored.TryGetValue(key.Id, out StoredItem? item);
                ItemVersion? acknowledged = key.Acknowledged;
                ItemVersion? inDoubt = null;
                bool written = false;
                if (pending is not null && !pending.MustNotApply)
                {
                    foreach ((KeyModel changed, ItemVersion? version) in pending.Changes)
                    {
                        if (changed == key)
                        {
                            inDoubt = version;
                            written = true;
                        }
                    }
                }

                report.Count("document states checked");
                ItemVersion? found = Match(item, acknowledged) ? acknowledged : written && Match(item, inDoubt) ? inDoubt : null;
                bool explained = Match(item, acknowledged) || (written && Match(item, inDoubt));
                if (!explained)
                {
                    report.Anomaly($"{key.Id}: found {Describe(item)}, last acknowledged {acknowledged?.Rev ?? "absent"}"
                        + (pending is null ? "" : $", in doubt: {pending.Kind}{(written ? " writing " + (inDoubt?.Rev ?? "a delete") : "")}{(pending.MustNotApply ? " (must be refused)" : "")}"));
                    found = item is null ? null : new ItemVersion(item.Rev, item.Tag, item.V);
                }
                else if (written && (inDoubt?.Rev != acknowledged?.Rev))
                {
                    if (Match(item, inDoubt))
                        applied++;
                    else
                        notApplied++;
                }

                if (found != acknowledged || item?.ChangeVector != key.ChangeVector)
                    key.Set(found, item?.ChangeVector);
            }

            if (pending is not null)
            {
                report.Count("writes in doubt after a kill: " + pending.Kind + (applied > 0 ? " (kept)" : notApplied > 0 || pending.MustNotApply ? " (lost)" : " (no change)"));
                if (pending.Atomic && applied > 0 && notApplied > 0)
                    report.Anomaly($"a {pending.Kind} batch in flight at the kill was partly applied: {applied} of its changes kept, {notApplied} not");
                writer.Resolved();
            }
        }

        foreach (string id in stored.Keys)
        {
            if (!owned.Contains(id))
                report.Anomaly($"{id} is stored but no writer ever wrote it");
        }

        return stored;
    }

    /// <summary>Each index, once non-stale, against an oracle computed from <paramref name="stored"/>.</summary>
    public static async Task CheckIndexesAsync(HttpClient client, string database, Dictionary<string, StoredItem> stored, KillCycleReport report)
    {
        foreach (string index in (string[])[FolioIndex, LuceneIndex])
        {
            for (int tag = 0; tag < ItemVersion.Tags; tag++)
            {
                var expected = stored.Values.Where(d => d.Tag == tag).Select(d => d.Id).ToHashSet(StringComparer.OrdinalIgnoreCase);
                await CompareIdsAsync(client, database, $"from index '{index}' where Tag = 't{tag}'", expected, report);
            }

            var inRange = stored.Values.Where(d => d.V is >= 250 and <= 600).Select(d => d.Id).ToHashSet(StringComparer.OrdinalIgnoreCase);
            await CompareIdsAsync(client, database, $"from index '{index}' where V between 250 and 600", inRange, report);
        }

        JsonElement rows = await QueryAsync(client, database, $"from index '{ReduceIndex}'");
        var groups = new Dictionary<string, (long Count, long Sum)>(StringComparer.Ordinal);
        foreach (JsonElement row in rows.EnumerateArray())
            groups[row.GetProperty("Tag").GetString()!] = (row.GetProperty("Count").GetInt64(), (long)row.GetProperty("Sum").GetDouble());
        var oracle = stored.Values.GroupBy(d => "t" + d.Tag).ToDictionary(g => g.Key, g => (Count: (long)g.Count(), Sum: g.Sum(d => (long)d.V)), StringComparer.Ordinal);
        report.Count("index answers checked");
        foreach (string tag in oracle.Keys.Union(groups.Keys))
        {
            var want = oracle.GetValueOrDefault(tag);
            var got = groups.GetValueOrDefault(tag);
            if (want != got)
                report.Anomaly($"{ReduceIndex} group {tag}: Count {got.Count}, Sum {got.Sum}; the documents give Count {want.Count}, Sum {want.Sum}");
        }
    }

    /// <summary>
    /// Waits (up to a bound) until <paramref name="log"/> has each document's current state; an anomaly past the bound.
    /// </summary>
    public static async Task CheckConsumerAsync(string consumer, ChangeLog log, Dictionary<string, StoredItem> stored, IEnumerable<string> ids, KillCycleReport report)
    {
        using var bound = new CancellationTokenSource(CatchUp);
        List<string> mismatches = log.Mismatches(stored, ids);
        while (mismatches.Count > 0 && !bound.IsCancellationRequested)
        {
            // Polled: the consumers run on their own and signal nothing the test could wait on.
            await Task.Delay(25, CancellationToken.None);
            mismatches = log.Mismatches(stored, ids);
        }

        report.Count(consumer + " checks");
        foreach (string mismatch in mismatches.Take(5))
            report.Anomaly($"{consumer}, {CatchUp.TotalSeconds:0} s after the writes stopped: {mismatch}");
    }

    /// <summary>Whether any index is stale now.</summary>
    public static async Task<bool> AnyIndexStaleAsync(HttpClient client, string database)
    {
        JsonElement stats = await FolioApi.GetJsonAsync(client, $"/databases/{database}/indexes/stats");
        return stats.GetProperty("Results").EnumerateArray().Any(i => i.GetProperty("IsStale").GetBoolean());
    }

    private static async Task CompareIdsAsync(HttpClient client, string database, string query, HashSet<string> expected, KillCycleReport report)
    {
        JsonElement results = await QueryAsync(client, database, query + " limit 4096");
        var ids = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (JsonElement document in results.EnumerateArray())
            ids.Add(document.GetProperty("@metadata").GetProperty("@id").GetString()!);
        report.Count("index answers checked");
        if (!ids.SetEquals(expected))
        {
            report.Anomaly($"{query}: {ids.Except(expected, StringComparer.OrdinalIgnoreCase).Count()} ids the documents do not give"
                + $" (e.g. {string.Join(", ", ids.Except(expected, StringComparer.OrdinalIgnoreCase).Take(3))}), {expected.Except(ids, StringComparer.OrdinalIgnoreCase).Count()} missing"
                + $" (e.g. {string.Join(", ", expected.Except(ids, StringComparer.OrdinalIgnoreCase).Take(3))})");
        }
    }

    private static async Task<JsonElement> QueryAsync(HttpClient client, string database, string query)
    {
        string body = JsonSerializer.Serialize(new { Query = query, WaitForNonStaleResults = true, WaitForNonStaleResultsTimeout = "00:02:00" });
        using HttpResponseMessage response = await client.PostAsync($"/databases/{database}/queries", FolioApi.Json(body));
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{query} answered {(int)response.StatusCode}: {text}");
        using JsonDocument answer = JsonDocument.Parse(text);
        Assert.False(answer.RootElement.GetProperty("IsStale").GetBoolean(), $"{query} was still stale after waiting for non-stale results");
        return answer.RootElement.GetProperty("Results").Clone();
    }

    private static async Task<Dictionary<string, StoredItem>> ReadAllAsync(HttpClient client, string database)
    {
        var stored = new Dictionary<string, StoredItem>(StringComparer.OrdinalIgnoreCase);
        JsonElement page = await FolioApi.GetJsonAsync(client, $"/databases/{database}/docs?startsWith=items/&pageSize=1024");
        foreach (JsonElement document in page.GetProperty("Results").EnumerateArray())
        {
            JsonElement metadata = document.GetProperty("@metadata");
            string id = metadata.GetProperty("@id").GetString()!;
            stored[id] = new StoredItem(
                id,
                document.GetProperty("Rev").GetString()!,
                int.Parse(document.GetProperty("Tag").GetString()![1..], System.Globalization.CultureInfo.InvariantCulture),
                document.GetProperty("V").GetInt32(),
                metadata.GetProperty("@change-vector").GetString()!);
        }

        return stored;
    }

    private static bool Match(StoredItem? item, ItemVersion? version) =>
        item is null ? version is null : version is not null && item.Rev == version.Rev && item.Tag == version.Tag && item.V == version.V;

    private static string Describe(StoredItem? item) => item is null ? "nothing" : $"{item.Rev} (t{item.Tag}, {item.V})";
}
