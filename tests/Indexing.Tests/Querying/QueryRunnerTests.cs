using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.Querying;

public sealed class QueryRunnerTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-query-" + Guid.NewGuid().ToString("N"));
    private readonly DocumentStore _store = DocumentStore.Open(StorageOptions.InMemory());
    private readonly IndexStore _indexes;
    private readonly QueryRunner _runner;

    public QueryRunnerTests()
    {
        _indexes = new IndexStore(_store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });
        _runner = new QueryRunner(_store, _indexes);
    }

    public void Dispose()
    {
        _indexes.Dispose();
        _store.Dispose();
        foreach (var directory in new[] { _root, _root + "-static" })
        {
            if (Directory.Exists(directory))
                Directory.Delete(directory, recursive: true);
        }
    }

    private Task Put(string id, string json) => _store.PutAsync(id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)));

    private async Task<(QueryResult Result, List<string> Ids)> Query(string rql, object? parameters = null)
    {
        var options = new QueryOptions
        {
            WaitForNonStaleResults = true,
            Parameters = parameters is null ? null : JsonSerializer.SerializeToElement(parameters),
        };
        var result = await _runner.RunAsync(rql, options);
        var ids = result.Results.Select(r => JsonDocument.Parse(r).RootElement.GetProperty("@metadata").GetProperty("@id").GetString()!).ToList();
        return (result, ids);
    }

    private async Task Seed()
    {
        await Put("orders/1", """{"Company":"companies/1","Total":150.5,"Freight":12,"ShipTo":{"Country":"France"},"Notes":"late delivery again","Paid":true,"Lines":[{"Product":"p/1"},{"Product":"p/2"}]}""");
        await Put("orders/2", """{"Company":"companies/2","Total":80,"Freight":25,"ShipTo":{"Country":"Spain"},"Notes":"on time","Paid":false}""");
        await Put("orders/3", """{"Company":"companies/1","Total":300,"Freight":18,"ShipTo":{"Country":"Germany"},"Notes":"delivered late","Discount":null}""");
        await Put("orders/4", """{"Company":"companies/3","Total":99.99,"Freight":10,"ShipTo":{"Country":"spain"},"Name":"Alfreds"}""");
        await Put("companies/1", """{"Name":"Acme"}""");
    }

    [Fact]
    public async Task Where_ComparisonsAndFunctions_UseAnAutoIndex()
    {
        await Seed();
        Assert.Equal(["orders/1", "orders/3"], (await Query("from Orders where Company = 'COMPANIES/1'")).Ids);
        Assert.Equal(["orders/1", "orders/3"], (await Query("from Orders where Total > 100 order by Total as double")).Ids);
        Assert.Equal(["orders/4", "orders/2"], (await Query("from Orders where Total < 100 order by Total as double desc")).Ids);
        Assert.Equal(["orders/1", "orders/3", "orders/4"], (await Query("from Orders where Freight between 10 and 20")).Ids);
        Assert.Equal(["orders/2", "orders/4"], (await Query("from Orders where ShipTo.Country in ('Spain')")).Ids);
        Assert.Equal(["orders/4"], (await Query("from Orders where startsWith(Name, 'Al')")).Ids);
        Assert.Equal(["orders/3"], (await Query("from Orders where exists(Discount)")).Ids);
        Assert.Equal(["orders/2", "orders/3", "orders/4"], (await Query("from Orders where not Paid = true")).Ids);
        var (result, ids) = await Query("from Orders where search(Notes, 'late deliveries') order by score()");
        Assert.Equal(2, ids.Count);
        Assert.StartsWith("Auto/Orders/", result.IndexName);
        Assert.False(result.IsStale);
    }

    [Fact]
    public async Task Exists_IsTrue_ForObjectsAndEmptyArrays()
    {
        await Put("orders/1", """{"ShipTo":{"Country":"France"},"Tags":[],"Lines":[]}""");
        await Put("orders/2", """{"ShipTo":null,"Tags":[[]],"Lines":[{"Product":"p/1"}]}""");
        await Put("orders/3", """{"Name":"none of them"}""");
        Assert.Equal(["orders/1", "orders/2"], (await Query("from Orders where exists(ShipTo)")).Ids);
        Assert.Equal(["orders/1", "orders/2"], (await Query("from Orders where exists(Tags)")).Ids);
        Assert.Equal(["orders/1", "orders/2"], (await Query("from Orders where exists(Tags[])")).Ids);
        Assert.Equal(["orders/1", "orders/2"], (await Query("from Orders where exists(Lines)")).Ids);
        Assert.Equal(["orders/2"], (await Query("from Orders where exists(Lines[].Product)")).Ids);
        Assert.Equal(["orders/3"], (await Query("from Orders where not exists(ShipTo)")).Ids);
        Assert.Equal(["orders/2"], (await Query("from Orders where ShipTo = null")).Ids);
    }

    [Fact]
    public async Task Select_KeepsArraysWhole_UnlessThePathWalksThem()
    {
        await Put("orders/1", """{"Tags":["a"],"Empty":[],"Lines":[{"Product":"p/1"}],"ShipTo":{"Country":"France"}}""");
        var result = await _runner.RunAsync("from Orders select Tags, Tags[] as Walked, Empty, Lines[].Product as Products, Lines.Product as Nested, ShipTo, Missing", new QueryOptions());
        var projected = JsonDocument.Parse(result.Results.Single()).RootElement;
        Assert.Equal("""["a"]""", projected.GetProperty("Tags").GetRawText());
        Assert.Equal("""["a"]""", projected.GetProperty("Walked").GetRawText());
        Assert.Equal("[]", projected.GetProperty("Empty").GetRawText());
        Assert.Equal("""["p/1"]""", projected.GetProperty("Products").GetRawText());
        Assert.Equal("""["p/1"]""", projected.GetProperty("Nested").GetRawText());
        Assert.Equal("France", projected.GetProperty("ShipTo").GetProperty("Country").GetString());
        Assert.Equal(JsonValueKind.Null, projected.GetProperty("Missing").ValueKind);
    }

    [Fact]
    public async Task Parameters_PagingAndTotals()
    {
        await Seed();
        var (result, ids) = await Query("from Orders where Company = $c or Total >= $min order by Total as double limit 2 offset 1", new { c = "companies/2", min = 99.99 });
        Assert.Equal(4, result.TotalResults);
        Assert.Equal(["orders/4", "orders/1"], ids);
    }

    [Fact]
    public async Task Collection_WithoutFilter_IsReadDirectly_AndIdLookupsToo()
    {
        await Seed();
        var (result, ids) = await Query("from Orders");
        Assert.Equal(4, result.TotalResults);
        Assert.Equal("collection/Orders", result.IndexName);
        Assert.Equal(4, ids.Count);
        var (byId, idIds) = await Query("from Orders where id() = 'ORDERS/2' or id() = 'orders/9'");
        Assert.Equal("document", byId.IndexName);
        Assert.Equal(["orders/2"], idIds);
        Assert.Empty(_indexes.All);
    }

    [Fact]
    public async Task SelectAndInclude_ProjectAndLoadRelatedDocuments()
    {
        await Seed();
        var result = await _runner.RunAsync("from Orders where Total = 150.5 select Company, Total as Amount, Lines[].Product as Products include Company", new QueryOptions { WaitForNonStaleResults = true });
        var projected = JsonDocument.Parse(result.Results.Single()).RootElement;
        Assert.Equal("companies/1", projected.GetProperty("Company").GetString());
        Assert.Equal(150.5, projected.GetProperty("Amount").GetDouble());
        Assert.Equal(2, projected.GetProperty("Products").GetArrayLength());
        Assert.True(result.Includes.ContainsKey("companies/1"));
    }

    [Fact]
    public async Task RunAsync_CountsValuesAndRanges_ForFacets()
    {
        await Seed();
        var result = await _runner.RunAsync("from Orders select facet(Company), facet(Total < 100, Total between 100 and 200, Total > 200)", new QueryOptions { WaitForNonStaleResults = true });
        Assert.Equal(2, result.Facets.Count);
        Assert.Equal("Company", result.Facets[0].Name);
        Assert.Equal(2, result.Facets[0].Values[0].Count);
        Assert.Equal([2L, 1L, 1L], result.Facets[1].Values.Select(v => v.Count));
    }

    [Fact]
    public async Task StaticIndex_RebuildsSideBySide_WhenItsDefinitionChanges()
    {
        await Seed();
        using var indexes = new IndexStore(_store, _root + "-static", NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true, MaintenanceInterval = TimeSpan.FromHours(1) });
        var runner = new QueryRunner(_store, indexes);
        var wait = new QueryOptions { WaitForNonStaleResults = true };
        indexes.Put([Definition("""{"Name":"Orders/ByCountry","Collections":["Orders"],"Fields":{"Country":{"Path":"ShipTo.Country"}}}""")]);
        Assert.Equal(2, (await runner.RunAsync("from index 'Orders/ByCountry' where Country = 'spain'", wait)).TotalResults);

        indexes.Put([Definition("""{"Name":"Orders/ByCountry","Collections":["Orders"],"Fields":{"Country":{"Path":"ShipTo.Country"},"Total":{"Path":"Total","Type":"Double"}}}""")]);
        var replacement = indexes.Replacements["Orders/ByCountry"];
        // Until the swap, queries run on the old definition, which has no Total.
        await Assert.ThrowsAsync<QueryException>(() => runner.RunAsync("from index 'Orders/ByCountry' where Total > 100", wait));
        Assert.True(await replacement.WaitForEtagAsync(_store.LastEtag, TimeSpan.FromSeconds(30)));
        indexes.MaintainOnce();
        Assert.Empty(indexes.Replacements);
        Assert.Equal(2, (await runner.RunAsync("from index 'Orders/ByCountry' where Total > 100", wait)).TotalResults);
    }

    [Fact]
    public async Task AutoIndex_IsWidened_AndTheNarrowerOneRetired()
    {
        await Seed();
        await Query("from Orders where Company = 'companies/1'");
        var first = Assert.Single(_indexes.All);
        await Query("from Orders where Company = 'companies/1' and Freight > 5");
        await WaitUntil(() => _indexes.All.Count == 1 && _indexes.All[0].Name != first.Name);
        Assert.Equal("Auto/Orders/ByCompanyAndFreight", _indexes.All[0].Name);
        await Query("from Orders where Freight > 5");
        Assert.Single(_indexes.All);
    }

    [Fact]
    public async Task Deletes_LeaveTheResults()
    {
        await Seed();
        Assert.Equal(2, (await Query("from Orders where Company = 'companies/1'")).Ids.Count);
        await _store.DeleteAsync("orders/1");
        Assert.Equal(["orders/3"], (await Query("from Orders where Company = 'companies/1'")).Ids);
    }

    [Theory]
    [InlineData("from", "Expected a collection name")]
    [InlineData("from Orders where", "Expected a field name")]
    [InlineData("from Orders where Total >", "Expected a value")]
    [InlineData("from Orders where Total between 1", "Expected 'and'")]
    [InlineData("from Orders order Total", "Expected 'by'")]
    [InlineData("from Orders where search(Notes)", "Expected ','")]
    [InlineData("from Orders where x = 'unterminated", "Unterminated string")]
    [InlineData("from Orders limit 5 extra", "Expected where, group by, order by")]
    public void Parse_BadQueries_SayWhereAndWhat(string rql, string expected)
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(rql));
        Assert.Contains(expected, error.Message);
        Assert.InRange(error.Position, 0, rql.Length);
    }

    [Fact]
    public async Task UnknownIndex_AndMissingParameter_AreReported()
    {
        await Assert.ThrowsAsync<IndexNotFoundException>(() => _runner.RunAsync("from index 'Nope'", new QueryOptions()));
        await Seed();
        await Assert.ThrowsAsync<QueryException>(() => _runner.RunAsync("from Orders where Total = $missing", new QueryOptions()));
    }

    private static IndexDefinition Definition(string json) => IndexDefinitionJson.Parse(JsonDocument.Parse(json).RootElement);

    private static async Task WaitUntil(Func<bool> condition)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (!condition())
        {
            await Task.Delay(10, timeout.Token);
        }
    }
}
