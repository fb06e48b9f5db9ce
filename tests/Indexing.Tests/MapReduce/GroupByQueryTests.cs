using System.Text.Json;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.MapReduce;

/// <summary>
/// <c>group by</c> queries: an auto map/reduce index made (and reused, and widened) for them, aggregates in
/// select, where and order by, where on group fields before or after the group by, fan-out over arrays,
/// and the errors of queries that cannot be grouped.
/// </summary>
public sealed class GroupByQueryTests : IDisposable
{
    private readonly InMemoryDatabase _db = new();

    public void Dispose() => _db.Dispose();

    private Task Put(string id, string json) => _db.PutAsync(id, json);

    private Task<(List<string> Rows, string? Index)> Query(string rql) => _db.QueryAsync(rql);

    private async Task SeedAsync()
    {
        await Put("orders/1", """{"Company":"companies/1","Freight":10,"Lines":[{"Product":"p/1","Quantity":2},{"Product":"p/2","Quantity":1}]}""");
        await Put("orders/2", """{"Company":"companies/1","Freight":5.5,"Lines":[{"Product":"p/1","Quantity":4}]}""");
        await Put("orders/3", """{"Company":"companies/2","Freight":30,"Lines":[{"Product":"p/2","Quantity":7}]}""");
        await Put("orders/4", """{"Company":"companies/3","Freight":1,"Lines":[]}""");
    }

    [Fact]
    public async Task RunAsync_AggregatesEachGroup_IntoTheSelectedNames()
    {
        await SeedAsync();
        var (rows, index) = await Query("from Orders group by Company order by Company select Company, count() as Count, sum(Freight) as Total, max(Freight), avg(Freight) as Mean");
        Assert.Equal(
        [
            """{"Company":"companies/1","Count":2,"Total":15.5,"Freight":10,"Mean":7.75,"@metadata":{"@projection":true}}""",
            """{"Company":"companies/2","Count":1,"Total":30,"Freight":30,"Mean":30,"@metadata":{"@projection":true}}""",
            """{"Company":"companies/3","Count":1,"Total":1,"Freight":1,"Mean":1,"@metadata":{"@projection":true}}""",
        ], rows);
        Assert.Equal("Auto/Orders/ByAverage(Freight)AndCountAndMax(Freight)AndSum(Freight)ReducedByCompany", index);
    }

    [Fact]
    public async Task RunAsync_FiltersAndSortsByAggregates_AndByGroupFieldsBeforeOrAfterTheGroupBy()
    {
        await SeedAsync();
        var (rows, _) = await Query("from Orders group by Company where count() > 1 or sum(Freight) >= 30 order by sum(Freight) as double desc select Company");
        Assert.Equal(["""{"Company":"companies/2","@metadata":{"@projection":true}}""", """{"Company":"companies/1","@metadata":{"@projection":true}}"""], rows);
        (rows, _) = await Query("from Orders where Company = 'COMPANIES/1' group by Company select count()");
        Assert.Equal(["""{"Count":2,"@metadata":{"@projection":true}}"""], rows);
        (rows, _) = await Query("from Orders group by Company where Company in ('companies/2', 'companies/3') and search(Company, 'companies') order by Company desc select Company, min(Freight) as Least");
        Assert.Equal(2, rows.Count);
        Assert.Contains("\"Least\":1", rows[0], StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_MakesAGroupPerArrayItem_AndStaysCurrentAfterWrites()
    {
        await SeedAsync();
        const string query = "from Orders group by Lines[].Product order by Lines[].Product select Lines[].Product as Product, sum(Lines[].Quantity) as Quantity, count() as Lines";
        var (rows, _) = await Query(query);
        Assert.Equal(
        [
            """{"Product":"p/1","Quantity":6,"Lines":2,"@metadata":{"@projection":true}}""",
            """{"Product":"p/2","Quantity":8,"Lines":2,"@metadata":{"@projection":true}}""",
        ], rows);

        await Put("orders/2", """{"Company":"companies/1","Lines":[{"Product":"p/3","Quantity":1}]}""");
        await _db.Store.DeleteAsync("orders/3");
        (rows, _) = await Query(query);
        Assert.Equal(
        [
            """{"Product":"p/1","Quantity":2,"Lines":1,"@metadata":{"@projection":true}}""",
            """{"Product":"p/2","Quantity":1,"Lines":1,"@metadata":{"@projection":true}}""",
            """{"Product":"p/3","Quantity":1,"Lines":1,"@metadata":{"@projection":true}}""",
        ], rows);
    }

    [Fact]
    public async Task RunAsync_ReusesAnIndexWithTheAggregates_AndWidensOneWithout()
    {
        await SeedAsync();
        var (_, first) = await Query("from Orders group by Company select count(), sum(Freight)");
        var (_, reused) = await Query("from Orders group by Company select sum(Freight) as F");
        Assert.Equal(first, reused);
        var (rows, widened) = await Query("from Orders group by Company where Company = 'companies/2' select min(Freight), count()");
        Assert.NotEqual(first, widened);
        Assert.Equal("Auto/Orders/ByCountAndMin(Freight)AndSum(Freight)ReducedByCompany", widened);
        Assert.Equal(["""{"Freight":30,"Count":1,"@metadata":{"@projection":true}}"""], rows);
        // Plain auto indexes on the collection are not mistaken for the grouped ones, and the other way round.
        var plain = await _db.Runner.RunAsync("from Orders where Company = 'companies/1'", new QueryOptions { WaitForNonStaleResults = true });
        Assert.Equal(2, plain.TotalResults);
        Assert.DoesNotContain("Reduced", plain.IndexName, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("from Orders group by Company where Freight > 3 select count()", "can only name its group fields and aggregates")]
    [InlineData("from Orders group by Company select Freight", "can only name its group fields and aggregates")]
    [InlineData("from index 'X' group by Company select count()", "group by reads a collection")]
    [InlineData("from Orders group by id() select count()", "group by takes fields")]
    [InlineData("from Orders group by Company select facet(Company)", "cannot also select facets")]
    public async Task RunAsync_RefusesWithAMessage_WhenTheQueryCannotBeGrouped(string rql, string message)
    {
        await SeedAsync();
        var error = await Assert.ThrowsAsync<QueryException>(() => _db.Runner.RunAsync(rql, new QueryOptions { WaitForNonStaleResults = true }));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("from Orders group by Company select sum()", "sum() needs a field")]
    [InlineData("from Orders group by Company select count(id())", "takes a field")]
    [InlineData("from Orders group by select count()", "Expected a field name")]
    public void Parse_RefusesWithAPosition_WhenAnAggregateOrGroupIsMalformed(string rql, string message)
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(rql));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_AnswersTheGroupFields_WhenNothingIsSelected()
    {
        await SeedAsync();
        var (rows, _) = await Query("from Orders group by Company order by Company");
        Assert.Equal("""{"Company":"companies/1","@metadata":{"@projection":true}}""", rows[0]);
        Assert.Equal(3, rows.Count);
        Assert.Equal(JsonValueKind.Object, JsonDocument.Parse(rows[2]).RootElement.ValueKind);
    }
}
