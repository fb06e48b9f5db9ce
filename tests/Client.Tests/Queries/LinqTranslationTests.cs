using Folio.Client.Linq;
using Folio.Client.Tests.Support;

namespace Folio.Client.Tests.Queries;

/// <summary>What RQL LINQ queries become (no request is made to translate).</summary>
[Collection(ServerCollection.Name)]
public class LinqTranslationTests(TestServer server)
{
    private static readonly string[] Cities = ["Lyon", "Paris"];

    [Fact]
    public async Task Where_TranslatesComparisonsAndLogic_WithParameters()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        int minimum = 100;
        RqlQuery rql = session.Query<Order>()
            .Where(o => (o.Total > minimum && o.Company == "companies/1") || !(o.Freight <= 5) || o.Paid)
            .ToRql();
        Assert.Equal("from Orders where (((Total > $p0 and Company = $p1) or not (Freight <= $p2)) or Paid = true)", rql.Text);
        Assert.Equal(100, (int)(Newtonsoft.Json.Linq.JToken)rql.Parameters["p0"]!);
        Assert.Equal("companies/1", (string?)(Newtonsoft.Json.Linq.JToken)rql.Parameters["p1"]!);
    }

    [Fact]
    public async Task Where_TranslatesContainsStartsWithNestedPathsAndNull()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        RqlQuery rql = session.Query<Order>()
            .Where(o => Cities.Contains(o.ShipTo!.City) && o.Employee!.StartsWith("a") && o.Notes != null && o.Tags.Contains("rush") && 10 < o.Freight)
            .ToRql();
        Assert.Equal("from Orders where ((((ShipTo.City in ($p0, $p1) and startsWith(Employee, $p2)) and not Notes = null) and Tags = $p3) and Freight > $p4)", rql.Text);
    }

    [Fact]
    public async Task OrderBySelectSkipTakeIncludeSearch_TranslateInRqlClauseOrder()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        RqlQuery rql = session.Query<Order>()
            .Search(o => o.Notes, "late")
            .Include(o => o.Company)
            .OrderByDescending(o => o.Total).ThenBy(o => o.Employee).ThenBy(o => o.Freight)
            .Skip(10).Take(5)
            .Select(o => new { o.Id, o.Company, Amount = o.Total })
            .ToRql();
        Assert.Equal("from Orders where search(Notes, $p0) order by Total as double desc, Employee, Freight as long select Company, Total as Amount include Company limit 5 offset 10", rql.Text);
    }

    [Fact]
    public async Task Query_OfAnIndex_ReadsFromIt()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        Assert.Equal("from index 'Orders/ByCompany' where Company = $p0", session.Query<Order>("Orders/ByCompany").Where(o => o.Company == "x").ToRql().Text);
    }

    [Fact]
    public async Task UnsupportedMethods_ThrowNotSupported_SayingWhat()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        NotSupportedException e = Assert.Throws<NotSupportedException>(() => session.Query<Order>().Where(o => o.Notes!.Contains("x")).ToRql());
        Assert.Contains("string.Contains", e.Message, StringComparison.Ordinal);
        Assert.Throws<NotSupportedException>(() => session.Query<Order>().ToList());
    }

    [Fact]
    public async Task Include_OfAPathInsideAnArray_TranslatesToTheArrayPath()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        Assert.Equal("from Baskets include Lines[].Product", session.Query<Basket>().Include(b => b.Lines.Select(l => l.Product)).ToRql().Text);
    }

    public sealed class Basket
    {
        public List<BasketLine> Lines { get; set; } = [];
    }

    public sealed class BasketLine
    {
        public string? Product { get; set; }
    }
}
