using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using static Folio.Server.Tests.Queries.AwkwardNameCorpus;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// Every property name of <see cref="AwkwardNameCorpus"/> over HTTP: indexed by an auto index and by a
/// static one, queried by equality and range, sorted, projected with and without an alias and faceted;
/// then the server restarts and the auto indexes come back under the same names and answer the same.
/// </summary>
public sealed class AwkwardNameTests
{
    [Fact]
    public async Task Queries_OnEveryAwkwardName_AnswerFromAutoAndStaticIndexes_AndAutoIndexesSurviveARestart()
    {
        var dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            string widest;
            await using (var server = await RunningServer.StartOnAsync(dataDir))
            {
                db = await CreateDatabaseAsync(server.Client);
                for (var i = 0; i < DocumentCount; i++)
                    await StoreAsync(server.Client, db, Id(i), Document(i));
                using (var put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(StaticIndexDefinition())))
                    Assert.Equal(HttpStatusCode.Created, put.StatusCode);

                for (var k = 0; k < Names.Length; k++)
                {
                    var field = Quoted(Names[k]);
                    await AssertAnswersAsync(server.Client, db, $"from {Collection}", k, field, Names[k]);
                    await AssertEqualityAsync(server.Client, db, $"from index '{StaticIndex}'", k, $"F{k}");
                    await AssertFacetAsync(server.Client, db, $"from index '{StaticIndex}'", k, $"F{k}", $"F{k}");
                    if (CanNameAStaticField(Names[k]))
                        await AssertAnswersAsync(server.Client, db, $"from index '{StaticIndex}'", k, field, Names[k]);
                }

                // Each new name widened the auto index; the narrower ones retire once the widest has caught up,
                // and the restart should bring back that one alone.
                var left = new List<string>();
                await WaitUntilAsync(async () => (left = await AutoIndexNamesAsync(server.Client, db)).Count == 1, () => $"one auto index is left, not [{string.Join(", ", left)}]");
                widest = left[0];
                Assert.StartsWith($"Auto/{Collection}/By", widest, StringComparison.Ordinal);
                var fields = await FieldNamesAsync(server.Client, db, widest);
                Assert.Equal(Names.Length, fields.Count);
                Assert.Contains("'Major Genre'", fields);
                Assert.Contains("'a.b'", fields);
                Assert.Contains("'id()'", fields);
                Assert.Contains("'Price__num'", fields);
            }

            await using (var restarted = await RunningServer.StartOnAsync(dataDir))
            {
                Assert.Equal([widest], await AutoIndexNamesAsync(restarted.Client, db));
                for (var k = 0; k < Names.Length; k++)
                {
                    var answer = await AssertEqualityAsync(restarted.Client, db, $"from {Collection}", k, Quoted(Names[k]));
                    Assert.Equal(widest, answer.GetProperty("IndexName").GetString());
                }
                Assert.Equal([widest], await AutoIndexNamesAsync(restarted.Client, db));
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    /// <summary>Equality, ranges, a sort with projections with and without an alias, and term and range facets on name k.</summary>
    private static async Task AssertAnswersAsync(HttpClient client, string db, string from, int k, string field, string name)
    {
        await AssertEqualityAsync(client, db, from, k, field);
        await AssertIdsAsync(client, db, $"{from} where {field} >= 4", v => v >= 4, k);
        await AssertIdsAsync(client, db, $"{from} where {field} between 1 and 2", v => v is 1 or 2, k);
        await AssertIdsAsync(client, db, $"{from} where {field} in (0, 5)", v => v is 0 or 5, k);
        await AssertIdsAsync(client, db, $"{from} where not {field} < 5", v => v == 5, k);

        var sorted = (await QueryAsync(client, db, $"{from} where {field} >= 0 order by {field} as long desc select {field}, id() as Id")).GetProperty("Results");
        Assert.Equal(DocumentCount, sorted.GetArrayLength());
        var values = sorted.EnumerateArray().Select(r => r.GetProperty(name).GetInt32()).ToList();
        Assert.Equal(values.OrderByDescending(v => v), values);
        Assert.All(sorted.EnumerateArray(), r => Assert.Equal(Value(int.Parse(r.GetProperty("Id").GetString()!["things/".Length..]), k), r.GetProperty(name).GetInt32()));

        var aliased = (await QueryAsync(client, db, $"{from} where {field} = 2 select {field} as Value")).GetProperty("Results");
        Assert.Equal(DocumentCount / Distinct, aliased.GetArrayLength());
        Assert.All(aliased.EnumerateArray(), r => Assert.Equal(2, r.GetProperty("Value").GetInt32()));

        await AssertFacetAsync(client, db, from, k, field, name);
    }

    private static async Task<JsonElement> AssertEqualityAsync(HttpClient client, string db, string from, int k, string field) =>
        await AssertIdsAsync(client, db, $"{from} where {field} = 3", v => v == 3, k);

    private static async Task AssertFacetAsync(HttpClient client, string db, string from, int k, string field, string name)
    {
        var facets = (await QueryAsync(client, db, $"{from} select facet({field}), facet({field} < 2, {field} between 2 and 3, {field} >= 4)")).GetProperty("Results");
        var terms = facets[0];
        Assert.Equal(name, terms.GetProperty("Name").GetString());
        Assert.Equal(
            Enumerable.Range(0, Distinct).Select(v => $"{v}:{DocumentCount / Distinct}"),
            terms.GetProperty("Values").EnumerateArray().Select(v => $"{v.GetProperty("Range").GetString()}:{v.GetProperty("Count").GetInt64()}").Order(StringComparer.Ordinal));
        var ranges = facets[1];
        Assert.Equal(name, ranges.GetProperty("Name").GetString());
        Assert.Equal([4L, 4L, 4L], ranges.GetProperty("Values").EnumerateArray().Select(v => v.GetProperty("Count").GetInt64()));
        Assert.Equal($"{field} < 2", ranges.GetProperty("Values")[0].GetProperty("Range").GetString());
    }

    private static async Task<JsonElement> AssertIdsAsync(HttpClient client, string db, string rql, Func<int, bool> matches, int k)
    {
        var answer = await QueryAsync(client, db, rql);
        var expected = Enumerable.Range(0, DocumentCount).Where(i => matches(Value(i, k))).Select(Id).Order(StringComparer.Ordinal);
        var actual = answer.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!).Order(StringComparer.Ordinal);
        Assert.True(expected.SequenceEqual(actual), $"{rql} found [{string.Join(", ", actual)}], expected [{string.Join(", ", expected)}].");
        return answer;
    }

    private static async Task<JsonElement> QueryAsync(HttpClient client, string db, string rql)
    {
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(JsonSerializer.Serialize(new { Query = rql, WaitForNonStaleResults = true })));
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{rql} answered {(int)response.StatusCode}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }

    private static async Task WaitUntilAsync(Func<Task<bool>> condition, Func<string> what)
    {
        using var timeout = new CancellationTokenSource(TestTimeouts.Default);
        while (!await condition())
        {
            Assert.False(timeout.IsCancellationRequested, $"Timed out waiting until {what()}.");
            await Task.Delay(50, CancellationToken.None);
        }
    }

    private static async Task<List<string>> AutoIndexNamesAsync(HttpClient client, string db)
    {
        var indexes = await GetJsonAsync(client, $"/databases/{db}/indexes");
        return [.. indexes.GetProperty("Results").EnumerateArray().Select(i => i.GetProperty("Name").GetString()!).Where(n => n.StartsWith("Auto/", StringComparison.Ordinal))];
    }

    private static async Task<List<string>> FieldNamesAsync(HttpClient client, string db, string index)
    {
        var definition = await GetJsonAsync(client, $"/databases/{db}/indexes?name={Uri.EscapeDataString(index)}");
        return [.. definition.GetProperty("Results")[0].GetProperty("Fields").EnumerateObject().Select(f => f.Name)];
    }
}
