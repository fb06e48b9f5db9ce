using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Querying;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.MapReduce;

/// <summary>
/// Map/reduce indexes through the query runner: groups and their aggregates, fan-out over arrays, updates
/// and deletes retracting what a document gave, min and max after their value went, nulls, values that
/// are not numbers, and queries, sorts and full-text over the result rows.
/// </summary>
public sealed class MapReduceQueryTests : IDisposable
{
    private const string ByCompany = """
        {"Name":"Orders/ByCompany","Collections":["Orders"],"Reduce":{"GroupBy":["Company"],
         "Aggregations":{"Count":{"Op":"Count"},"Total":{"Op":"Sum","Path":"Freight"},"Cheapest":{"Op":"Min","Path":"Freight"},
                         "Dearest":{"Op":"Max","Path":"Freight"},"Mean":{"Op":"Average","Path":"Freight"}}}}
        """;

    private const string ByProduct = """
        {"Name":"Orders/ByProduct","Collections":["Orders"],"Reduce":{"GroupBy":["Lines[].Product"],
         "Aggregations":{"Lines":{"Op":"Count"},"Quantity":{"Op":"Sum","Path":"Lines[].Quantity"},"Freight":{"Op":"Sum","Path":"Freight"}}}}
        """;

    private readonly InMemoryDatabase _db = new();

    public void Dispose() => _db.Dispose();

    private Task Put(string id, string json) => _db.PutAsync(id, json);

    private async Task<List<JsonElement>> Rows(string rql)
    {
        var (results, _) = await _db.QueryAsync(rql);
        return results.ConvertAll(row => JsonDocument.Parse(row).RootElement.Clone());
    }

    private static IndexDefinition Definition(string json) => InMemoryDatabase.Definition(json);

    private async Task SeedAsync()
    {
        await Put("orders/1", """{"Company":"companies/1","Freight":12,"Lines":[{"Product":"p/1","Quantity":2},{"Product":"p/2","Quantity":5}]}""");
        await Put("orders/2", """{"Company":"companies/2","Freight":25.5,"Lines":[{"Product":"p/1","Quantity":1}]}""");
        await Put("orders/3", """{"Company":"companies/1","Freight":18,"Lines":[]}""");
        await Put("orders/4", """{"Freight":7,"Lines":[{"Product":"p/2","Quantity":3},{"Product":null,"Quantity":4}]}""");
    }

    private static string Row(List<JsonElement> rows, string field, string? value) =>
        rows.Single(r => r.GetProperty(field).ValueKind == JsonValueKind.Null ? value is null : r.GetProperty(field).GetString() == value).GetRawText();

    [Fact]
    public async Task RunAsync_AnswersOneRowPerGroup_WithEveryAggregation()
    {
        await SeedAsync();
        _db.Indexes.Put([Definition(ByCompany)]);
        var rows = await Rows("from index 'Orders/ByCompany'");
        Assert.Equal(3, rows.Count);
        Assert.Equal("""{"Company":"companies/1","Count":2,"Total":30,"Cheapest":12,"Dearest":18,"Mean":15}""", Row(rows, "Company", "companies/1"));
        Assert.Equal("""{"Company":"companies/2","Count":1,"Total":25.5,"Cheapest":25.5,"Dearest":25.5,"Mean":25.5}""", Row(rows, "Company", "companies/2"));
        Assert.Equal("""{"Company":null,"Count":1,"Total":7,"Cheapest":7,"Dearest":7,"Mean":7}""", Row(rows, "Company", null));
    }

    [Fact]
    public async Task RunAsync_MakesAnEntryPerArrayItem_WhenAGroupPathWalksAnArray()
    {
        await SeedAsync();
        _db.Indexes.Put([Definition(ByProduct)]);
        var rows = await Rows("from index 'Orders/ByProduct'");
        Assert.Equal(3, rows.Count);
        // Quantity reads the line of the entry; Freight, outside the array, counts once per line.
        Assert.Equal("""{"Product":"p/1","Lines":2,"Quantity":3,"Freight":37.5}""", Row(rows, "Product", "p/1"));
        Assert.Equal("""{"Product":"p/2","Lines":2,"Quantity":8,"Freight":19}""", Row(rows, "Product", "p/2"));
        Assert.Equal("""{"Product":null,"Lines":1,"Quantity":4,"Freight":7}""", Row(rows, "Product", null));
    }

    [Fact]
    public async Task RunAsync_RetractsWhatADocumentGave_WhenItChangesOrIsDeleted()
    {
        await SeedAsync();
        _db.Indexes.Put([Definition(ByCompany)]);
        await Rows("from index 'Orders/ByCompany'");

        // The minimum and maximum of companies/1 both go: the next ones come from what is left.
        await Put("orders/1", """{"Company":"companies/2","Freight":1}""");
        await Put("orders/5", """{"Company":"companies/1","Freight":40}""");
        await _db.Store.DeleteAsync("orders/4");
        var rows = await Rows("from index 'Orders/ByCompany'");
        Assert.Equal(2, rows.Count);
        Assert.Equal("""{"Company":"companies/1","Count":2,"Total":58,"Cheapest":18,"Dearest":40,"Mean":29}""", Row(rows, "Company", "companies/1"));
        Assert.Equal("""{"Company":"companies/2","Count":2,"Total":26.5,"Cheapest":1,"Dearest":25.5,"Mean":13.25}""", Row(rows, "Company", "companies/2"));

        await _db.Store.DeleteAsync("orders/3");
        await _db.Store.DeleteAsync("orders/5");
        rows = await Rows("from index 'Orders/ByCompany'");
        Assert.Equal("companies/2", Assert.Single(rows).GetProperty("Company").GetString());
        Assert.Equal(1, _db.Indexes.Get("Orders/ByCompany")!.MapReduce!.Value.Groups);
        Assert.Equal(2, _db.Indexes.Get("Orders/ByCompany")!.MapReduce!.Value.MapEntries);
    }

    [Fact]
    public async Task RunAsync_FiltersSortsAndPagesRows_LikeAnyIndex()
    {
        await SeedAsync();
        await Put("orders/6", """{"Company":"Companies/Big One","Freight":100}""");
        _db.Indexes.Put([Definition(ByCompany)]);

        var rows = await Rows("from index 'Orders/ByCompany' where Count >= 1 order by Total as double desc limit 2");
        Assert.Equal(["Companies/Big One", "companies/1"], rows.Select(r => r.GetProperty("Company").GetString()));
        rows = await Rows("from index 'Orders/ByCompany' where Company = 'COMPANIES/2'");
        Assert.Equal(25.5, Assert.Single(rows).GetProperty("Total").GetDouble());
        rows = await Rows("from index 'Orders/ByCompany' where search(Company, 'big')");
        Assert.Equal("Companies/Big One", Assert.Single(rows).GetProperty("Company").GetString());
        rows = await Rows("from index 'Orders/ByCompany' where Mean between 10 and 20 select Company, Total as Sum");
        Assert.Equal("""{"Company":"companies/1","Sum":30,"@metadata":{"@projection":true}}""", Assert.Single(rows).GetRawText());
    }

    [Fact]
    public async Task RunAsync_CountsTheRows_WhenThePageIsEmpty()
    {
        await SeedAsync();
        _db.Indexes.Put([Definition(ByCompany)]);
        using var result = await _db.Runner.RunAsync("from index 'Orders/ByCompany' limit 0", new QueryOptions { WaitForNonStaleResults = true, WaitTimeout = TimeSpan.FromSeconds(30) });
        Assert.Empty(result.Results);
        Assert.Equal(3, result.TotalResults);
    }

    [Fact]
    public async Task RunAsync_RecordsAnErrorAndSkipsTheValue_WhenANumericAggregationMeetsText()
    {
        await Put("orders/1", """{"Company":"c","Freight":"free"}""");
        await Put("orders/2", """{"Company":"c","Freight":3}""");
        _db.Indexes.Put([Definition(ByCompany)]);
        var rows = await Rows("from index 'Orders/ByCompany'");
        Assert.Equal("""{"Company":"c","Count":2,"Total":3,"Cheapest":3,"Dearest":3,"Mean":3}""", Assert.Single(rows).GetRawText());
        var (errors, total) = _db.Indexes.Get("Orders/ByCompany")!.Errors;
        Assert.True(total >= 4);
        Assert.Contains(errors, e => e.DocumentId == "orders/1" && e.Message.Contains("not a number", StringComparison.Ordinal));
    }

    [Fact]
    public async Task RunAsync_GroupsByEveryGroupField_AndTreatsWholeDoublesAsIntegers()
    {
        await Put("sales/1", """{"Year":2024,"Region":"EU","Amount":1.5}""");
        await Put("sales/2", """{"Year":2024.0,"Region":"EU","Amount":2.5}""");
        await Put("sales/3", """{"Year":2025,"Region":"EU","Amount":1}""");
        await Put("sales/4", """{"Year":2024,"Region":"US","Amount":1}""");
        _db.Indexes.Put([Definition("""{"Name":"Sales/ByYearAndRegion","Collections":["Sales"],"Reduce":{"GroupBy":["Year","Region"],"Aggregations":{"Amount":{"Op":"Sum","Path":"Amount"}}}}""")]);
        var rows = await Rows("from index 'Sales/ByYearAndRegion' where Year = 2024 order by Region");
        Assert.Equal(["""{"Year":2024,"Region":"EU","Amount":4}""", """{"Year":2024,"Region":"US","Amount":1}"""], rows.Select(r => r.GetRawText()));
    }
}
