using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Xunit.Abstractions;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Rql;

/// <summary>
/// The documentation-parity suite: the queries of <see cref="DocumentationParityCases"/>, taken from the seeds' public RQL
/// documentation, run against a generated Northwind database on a real server. A query Folio accepts must answer what the
/// oracle (LINQ over the generated objects) answers; one it refuses must be refused with a clean 400. The table of what
/// was accepted, correct and refused (with the reason and the branch building the feature) goes to the test output and to
/// <c>documentation-parity.md</c> beside the test assembly. Run it with
/// <c>dotnet test tests/Server.Tests --filter FullyQualifiedName~DocumentationParity --logger "console;verbosity=detailed"</c>.
/// </summary>
public sealed class DocumentationParityTests(ITestOutputHelper output)
{
    private const int Seed = 29;

    private static readonly string[] Indexes =
    [
        """{"Name":"Employees/ByNotes","Collections":["Employees"],"Fields":{"Notes":{"Path":"Notes","Search":true},"FirstName":{"Path":"FirstName"},"LastName":{"Path":"LastName"}}}""",
        """{"Name":"Products/Search","Collections":["Products"],"Fields":{"Name":{"Path":"Name","Search":true},"Category":{"Path":"Category"},"Supplier":{"Path":"Supplier"},"PricePerUnit":{"Path":"PricePerUnit","Type":"Double"},"UnitsInStock":{"Path":"UnitsInStock","Type":"Long"}}}""",
        """{"Name":"Orders/ByProduct","Collections":["Orders"],"Fields":{"Product":{"Path":"Lines[].Product"},"Company":{"Path":"Company"}}}""",
        """{"Name":"Orders/ByLine","Collections":["Orders"],"ForEach":"Lines[]","Fields":{"Product":{"Path":"Lines[].Product"},"Quantity":{"Path":"Lines[].Quantity","Type":"Long"},"Company":{"Path":"Company"}}}""",
        """{"Name":"Orders/ByCompany","Collections":["Orders"],"Reduce":{"GroupBy":["Company"],"Aggregations":{"Count":{"Op":"Count"},"Total":{"Op":"Sum","Path":"Freight"}}}}""",
    ];

    [Fact]
    public async Task DocumentationQueries_AcceptedOnes_AnswerAsTheOracle()
    {
        var data = Northwind.Generate(Seed);
        await using var server = await RunningServer.StartAsync();
        var db = await CreateDatabaseAsync(server.Client);
        await SeedAsync(server.Client, db, data);

        var outcomes = new List<Outcome>();
        foreach (var @case in DocumentationParityCases.All)
            outcomes.Add(@case.Patch is null ? await RunQueryAsync(server.Client, db, @case, data) : await RunPatchAsync(server.Client, db, @case, data));

        var report = Report(outcomes);
        output.WriteLine(report);
        await File.WriteAllTextAsync(Path.Combine(AppContext.BaseDirectory, "documentation-parity.md"), report);
        Assert.True(DocumentationParityCases.All.Count >= 60, "The suite holds at least 60 queries of the documentation.");
        Assert.Empty(outcomes.Where(o => o.Verdict is Verdict.Wrong or Verdict.Broken).Select(o => $"{o.Case.Rql}: {o.Detail}"));
    }

    private static async Task SeedAsync(HttpClient client, string db, Northwind data)
    {
        var commands = data.Documents().Select(d => $$"""{"Type":"PUT","Id":{{JsonSerializer.Serialize(d.Id)}},"Document":{{d.Json}}}""");
        using (var bulk = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json($$"""{"Commands":[{{string.Join(',', commands)}}]}""")))
            Assert.True(bulk.IsSuccessStatusCode, await bulk.Content.ReadAsStringAsync());
        using var put = await client.PutAsync($"/databases/{db}/indexes", FolioApi.Json($$"""{"Indexes":[{{string.Join(',', Indexes)}}]}"""));
        Assert.True(put.StatusCode == HttpStatusCode.Created, await put.Content.ReadAsStringAsync());
    }

    private static async Task<Outcome> RunQueryAsync(HttpClient client, string db, ParityCase @case, Northwind data)
    {
        var body = JsonSerializer.Serialize(new { Query = @case.Rql, QueryParameters = @case.Parameters, WaitForNonStaleResults = true });
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(body));
        var text = await response.Content.ReadAsStringAsync();
        if (response.StatusCode != HttpStatusCode.OK)
            return Refusal(@case, response.StatusCode, text);
        var expected = @case.Oracle(data);
        var actual = Answer(JsonDocument.Parse(text).RootElement, expected.Shape);
        return expected.Matches(actual, out var difference)
            ? new Outcome(@case, Verdict.Correct, "")
            : new Outcome(@case, Verdict.Wrong, difference);
    }

    /// <summary>A set-based patch as the seeds send it (<c>PATCH …/queries</c>); once accepted, the documents must come to hold what the oracle says.</summary>
    private static async Task<Outcome> RunPatchAsync(HttpClient client, string db, ParityCase @case, Northwind data)
    {
        var body = JsonSerializer.Serialize(new { Query = @case.Rql, QueryParameters = @case.Parameters });
        using var request = new HttpRequestMessage(HttpMethod.Patch, $"/databases/{db}/queries") { Content = FolioApi.Json(body) };
        using var response = await client.SendAsync(request);
        var text = await response.Content.ReadAsStringAsync();
        if (!response.IsSuccessStatusCode)
            return Refusal(@case, response.StatusCode, text);
        var patch = @case.Patch!(data);
        var deadline = Stopwatch.StartNew();
        var difference = "";
        while (deadline.Elapsed < TestTimeouts.Default)
        {
            var values = await FieldValuesAsync(client, db, patch);
            var wrong = patch.Expected.Where(e => !values.TryGetValue(e.Key.ToLowerInvariant(), out var value) || value != e.Value).ToList();
            if (wrong.Count == 0)
                return new Outcome(@case, Verdict.Correct, "");
            difference = $"{wrong.Count} documents differ, e.g. {wrong[0].Key}: expected {wrong[0].Value}, got {values.GetValueOrDefault(wrong[0].Key.ToLowerInvariant())}";
            await Task.Delay(100);
        }
        return new Outcome(@case, Verdict.Wrong, difference);
    }

    private static async Task<Dictionary<string, string>> FieldValuesAsync(HttpClient client, string db, ParityPatch patch)
    {
        var body = JsonSerializer.Serialize(new { Query = $"from {patch.Collection} limit 100000" });
        using var response = await client.PostAsync($"/databases/{db}/queries", FolioApi.Json(body));
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        var values = new Dictionary<string, string>();
        foreach (var result in json.RootElement.GetProperty("Results").EnumerateArray())
        {
            var id = result.GetProperty("@metadata").GetProperty("@id").GetString()!.ToLowerInvariant();
            values[id] = result.TryGetProperty(patch.Field, out var value) ? Canonical.Of(value) : "(missing)";
        }
        return values;
    }

    private static Outcome Refusal(ParityCase @case, HttpStatusCode status, string text)
    {
        // A refusal is a clean problem: 400 for a query Folio does not take, 404/405 for a route it does not have yet.
        if (status is not (HttpStatusCode.BadRequest or HttpStatusCode.NotFound or HttpStatusCode.MethodNotAllowed))
            return new Outcome(@case, Verdict.Broken, $"{(int)status}: {text}");
        string reason;
        try
        {
            using var problem = JsonDocument.Parse(text);
            reason = problem.RootElement.TryGetProperty("detail", out var detail) ? detail.GetString() ?? "" : problem.RootElement.GetProperty("title").GetString() ?? "";
        }
        catch (JsonException)
        {
            return new Outcome(@case, Verdict.Broken, $"{(int)status} without a problem body: {text}");
        }
        return new Outcome(@case, Verdict.Refused, $"{(int)status}: {reason}");
    }

    private static ParityAnswer Answer(JsonElement root, ParityShape shape)
    {
        var items = new List<string>();
        foreach (var result in root.GetProperty("Results").EnumerateArray())
        {
            switch (shape)
            {
                case ParityShape.Ids:
                    items.Add(result.GetProperty("@metadata").GetProperty("@id").GetString()!.ToLowerInvariant());
                    break;
                case ParityShape.Rows:
                    items.Add(Canonical.Of(result));
                    break;
                case ParityShape.Facets:
                    var name = result.GetProperty("Name").GetString();
                    foreach (var value in result.GetProperty("Values").EnumerateArray())
                        items.Add($"{name}|{value.GetProperty("Range").GetString()}|{value.GetProperty("Count").GetInt64().ToString(CultureInfo.InvariantCulture)}");
                    break;
            }
        }
        var includes = root.TryGetProperty("Includes", out var included) ? included.EnumerateObject().Select(p => p.Name.ToLowerInvariant()).ToList() : [];
        return new ParityAnswer(shape, items, Ordered: false) { Includes = includes };
    }

    private static string Report(List<Outcome> outcomes)
    {
        var accepted = outcomes.Count(o => o.Verdict is Verdict.Correct or Verdict.Wrong);
        var correct = outcomes.Count(o => o.Verdict == Verdict.Correct);
        var builder = new StringBuilder();
        builder.AppendLine(CultureInfo.InvariantCulture, $"Documentation parity: {outcomes.Count} queries, {accepted} accepted ({Percent(accepted, outcomes.Count)}), {correct} of them correct by the oracle, {outcomes.Count - accepted} refused.");
        builder.AppendLine();
        builder.AppendLine("| topic | query | verdict | pending on | detail |");
        builder.AppendLine("|---|---|---|---|---|");
        foreach (var outcome in outcomes)
        {
            var detail = outcome.Detail.Length > 160 ? outcome.Detail[..160] + "…" : outcome.Detail;
            builder.AppendLine(CultureInfo.InvariantCulture, $"| {outcome.Case.Topic} | `{outcome.Case.Rql.Replace("|", "\\|", StringComparison.Ordinal)}` | {outcome.Verdict} | {outcome.Case.Pending} | {detail.Replace("|", "\\|", StringComparison.Ordinal).ReplaceLineEndings(" ")} |");
        }
        return builder.ToString();
    }

    private static string Percent(int part, int whole) => (100.0 * part / whole).ToString("0", CultureInfo.InvariantCulture) + "%";

    private enum Verdict
    {
        Correct,
        Wrong,
        Refused,
        Broken,
    }

    private sealed record Outcome(ParityCase Case, Verdict Verdict, string Detail);
}
