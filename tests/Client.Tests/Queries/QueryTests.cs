using Folio.Client.Exceptions;
using Folio.Client.Linq;
using Folio.Client.Tests.Support;

namespace Folio.Client.Tests.Queries;

[Collection(ServerCollection.Name)]
public class QueryTests(TestServer server)
{
    [Fact]
    public async Task ToListAsync_FiltersAndOrders_AndAnswersTrackedEntities()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        Order? loaded = await session.LoadAsync<Order>("orders/3");
        List<Order> orders = await session.Query<Order>()
            .Customize(c => c.WaitForNonStaleResults())
            .Where(o => o.Total >= 80 && o.ShipTo!.Country != "Germany")
            .OrderByDescending(o => o.Total)
            .ToListAsync();
        Assert.Equal(["orders/3", "orders/1", "orders/2"], orders.Select(o => o.Id));
        Assert.Same(loaded, orders[0]);
        orders[1].Freight = 77;
        await session.SaveChangesAsync();
        await using var check = store.OpenAsyncSession();
        Assert.Equal(77, (await check.LoadAsync<Order>("orders/1"))!.Freight);
    }

    [Fact]
    public async Task Where_WithOrNotInAndStartsWith_FindsTheRightDocuments()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        string[] cities = ["Lyon", "Berlin"];
        List<Order> orders = await session.Query<Order>().Customize(c => c.WaitForNonStaleResults())
            .Where(o => cities.Contains(o.ShipTo!.City) || (o.Employee!.StartsWith("bo") && !o.Paid))
            .OrderBy(o => o.Freight)
            .ToListAsync();
        Assert.Equal(["orders/1", "orders/2", "orders/4"], orders.Select(o => o.Id));
    }

    [Fact]
    public async Task Where_OnTheCountOfAListAndTheLengthOfAString_FindsBySize()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        Assert.Equal("from Orders where (Tags.Count > $p0 and Notes.Length < $p1)", session.Query<Order>().Where(o => o.Tags.Count > 0 && o.Notes!.Length < 20).ToRql().Text);
        List<Order> orders = await session.Query<Order>().Customize(c => c.WaitForNonStaleResults())
            .Where(o => o.Tags.Count > 0 && o.Notes!.Length < 20)
            .OrderBy(o => o.Total)
            .ToListAsync();
        Assert.Equal(["orders/4", "orders/2"], orders.Select(o => o.Id));
        Assert.Equal("from Crates where Codes.Length > $p0", session.Query<Crate>().Where(c => c.Codes.Length > 1).ToRql().Text);
    }

    private sealed class Crate
    {
        public string[] Codes { get; set; } = [];
    }

    [Fact]
    public async Task Filter_ChecksWhatTheQueryRetrieved_UpToItsLimit()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        IQueryable<Order> filtered = session.Query<Order>().Customize(c => c.WaitForNonStaleResults()).Where(o => o.Employee != "carl").Filter(o => o.Freight >= 10, 50);
        Assert.EndsWith(" filter Freight >= $p1 filter_limit 50", filtered.ToRql().Text, StringComparison.Ordinal);
        List<Order> orders = await filtered.OrderBy(o => o.Total).ToListAsync();
        Assert.Equal(["orders/2", "orders/1"], orders.Select(o => o.Id));
        Assert.Equal(3, await session.Query<Order>().Filter(o => o.Freight >= 10).CountAsync());
        Assert.Throws<ArgumentOutOfRangeException>(() => session.Query<Order>().Filter(o => o.Freight >= 10, -1));
    }

    [Fact]
    public async Task Search_FindsDocumentsByWords()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        List<Order> orders = await session.Query<Order>().Customize(c => c.WaitForNonStaleResults()).Search(o => o.Notes, "delivery").OrderBy(o => o.Total).ToListAsync();
        Assert.Equal(["orders/1", "orders/3"], orders.Select(o => o.Id));
    }

    [Fact]
    public async Task Select_Projects_IntoAnonymousTypesDtosAndSingleFields_Untracked()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        var rows = await session.Query<Order>().Customize(c => c.WaitForNonStaleResults()).Where(o => o.Employee == "ann").OrderBy(o => o.Total)
            .Select(o => new { o.Id, o.Company, Amount = o.Total, City = o.ShipTo!.City }).ToListAsync();
        Assert.Equal(2, rows.Count);
        Assert.Equal("orders/1", rows[0].Id);
        Assert.Equal(120m, rows[0].Amount);
        Assert.Equal("Lyon", rows[0].City);

        List<OrderSummary> summaries = await session.Query<Order>().Where(o => o.Employee == "bob").Select(o => new OrderSummary { Id = o.Id, Company = o.Company, Amount = o.Total }).ToListAsync();
        Assert.Equal("orders/2", Assert.Single(summaries).Id);
        Assert.Equal(80m, summaries[0].Amount);

        List<string?> employees = await session.Query<Order>().Where(o => o.Paid).OrderBy(o => o.Employee).Select(o => o.Employee).ToListAsync();
        Assert.Equal(["ann", "carl"], employees);
        Assert.False(session.Advanced.IsLoaded("orders/1"));
    }

    [Fact]
    public async Task SkipTakeCountFirstOrDefaultAny_AnswerPagesAndCounts()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        List<Order> page = await session.Query<Order>().Statistics(out QueryStatistics stats).OrderBy(o => o.Total).Skip(1).Take(2).ToListAsync();
        Assert.Equal(["orders/2", "orders/1"], page.Select(o => o.Id));
        Assert.Equal(4, stats.TotalResults);
        Assert.False(string.IsNullOrEmpty(stats.IndexName));

        Assert.Equal(2, await session.Query<Order>().Where(o => o.Paid).CountAsync());
        Assert.Equal("orders/3", (await session.Query<Order>().OrderByDescending(o => o.Total).FirstOrDefaultAsync())!.Id);
        Assert.Null(await session.Query<Order>().FirstOrDefaultAsync(o => o.Employee == "zed"));
        Assert.True(await session.Query<Order>().AnyAsync());
        Assert.False(await session.Query<Order>().Where(o => o.Total > 1000).AnyAsync());
    }

    [Fact]
    public async Task Include_InAQuery_BringsReferredDocuments_WithoutMoreRequests()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        List<Order> orders = await session.Query<Order>().Customize(c => c.WaitForNonStaleResults()).Include(o => o.Company).Where(o => o.Employee == "ann").ToListAsync();
        Assert.Equal(2, orders.Count);
        int requests = session.Advanced.NumberOfRequests;
        Company? company = await session.LoadAsync<Company>(orders[0].Company!);
        Assert.Equal("Acme", company!.Name);
        Assert.Equal(requests, session.Advanced.NumberOfRequests);
    }

    [Fact]
    public async Task RawQuery_WithParameters_AndGroupBy_AnswersRows()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        List<Order> orders = await session.Advanced.RawQuery<Order>("from Orders where Freight > $min order by Freight as long").AddParameter("min", 10).WaitForNonStaleResults().ToListAsync();
        Assert.Equal(["orders/2", "orders/4"], orders.Select(o => o.Id));

        List<CompanyTotals> rows = await session.Advanced.RawQuery<CompanyTotals>("from Orders group by Company select Company, count() as Count, sum(Freight) as Freight")
            .WaitForNonStaleResults().ToListAsync();
        CompanyTotals acme = Assert.Single(rows, r => r.Company == "companies/1");
        Assert.Equal(2, acme.Count);
        Assert.Equal(15, acme.Freight);
    }

    [Fact]
    public async Task RawQuery_Facets_AnswerCountsPerTerm()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        List<Client.Queries.FacetResult> facets = await session.Advanced.RawQuery<object>("from Orders select facet(Employee), facet(Total < 100, Total >= 100)").WaitForNonStaleResults().GetFacetsAsync();
        Assert.Equal(2, facets.Count);
        Assert.Equal(2, facets[0].Values.Single(v => v.Range == "ann").Count);
        Assert.Equal([2L, 2L], facets[1].Values.Select(v => v.Count));
    }

    [Fact]
    public async Task RawQuery_ThatDoesNotParse_ThrowsQueryException_WithLineAndColumn()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        QueryException e = await Assert.ThrowsAsync<QueryException>(() => session.Advanced.RawQuery<Order>("from Orders\nwhere Total >> 3").ToListAsync());
        Assert.Equal("urn:folio:problem:invalid-query", e.ProblemType);
        Assert.Equal(2, e.Line);
        Assert.NotNull(e.Column);
        Assert.True(e.Column > 1, e.Message);
    }

    [Fact]
    public async Task StreamAsync_ReadsEveryResult_PastThePageCap()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using (Client.BulkInsert.BulkInsertOperation bulk = store.BulkInsert())
        {
            for (int i = 0; i < 2500; i++)
                await bulk.StoreAsync(new Order { Employee = i % 2 == 0 ? "even" : "odd", Freight = i }, "orders/" + i);
        }
        await using var session = store.OpenAsyncSession();
        var seen = new HashSet<string>();
        await foreach (var result in session.Advanced.StreamAsync(session.Query<Order>().Where(o => o.Employee == "even")))
        {
            Assert.Equal(0, result.Document.Freight % 2);
            Assert.True(seen.Add(result.Id!));
            Assert.Equal(result.Id, result.Document.Id);
        }
        Assert.Equal(1250, seen.Count);

        int raw = 0;
        await foreach (var result in session.Advanced.StreamAsync<Order>("from Orders where Freight >= $f", new Dictionary<string, object?> { ["f"] = 2000 }))
            raw++;
        Assert.Equal(500, raw);
    }

    [Fact]
    public async Task Query_OfAStaticIndex_ReadsIt_AndAMissingIndexThrowsQueryException()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await store.Maintenance.PutIndexesAsync([new Client.Indexes.IndexDefinition
        {
            Name = "Orders/ByEmployee",
            Collections = ["Orders"],
            Fields = new Dictionary<string, Client.Indexes.IndexField> { ["Employee"] = new(), ["Freight"] = new() { Type = "Long" } },
        }]);
        await using var session = store.OpenAsyncSession();
        List<Order> orders = await session.Query<Order>("Orders/ByEmployee").Statistics(out QueryStatistics stats)
            .Customize(c => c.WaitForNonStaleResults()).Where(o => o.Employee == "ann").OrderBy(o => o.Freight).ToListAsync();
        Assert.Equal(["orders/3", "orders/1"], orders.Select(o => o.Id));
        Assert.Equal("Orders/ByEmployee", stats.IndexName);

        QueryException e = await Assert.ThrowsAsync<QueryException>(() => session.Query<Order>("No/Such").ToListAsync());
        Assert.Equal("urn:folio:problem:index-not-found", e.ProblemType);
        Assert.Contains("No/Such", e.Query, StringComparison.Ordinal);
    }

    public sealed class CompanyTotals
    {
        public string? Company { get; set; }

        public int Count { get; set; }

        public int Freight { get; set; }
    }
}
