using Folio.Client.Conventions;
using Folio.Client.Exceptions;
using Folio.Client.Linq;
using Folio.Client.Tests.Support;

namespace Folio.Client.Tests.Session;

[Collection(ServerCollection.Name)]
public class SessionTests(TestServer server)
{
    [Fact]
    public async Task SaveChangesAsync_SetsServerMadeIds_AndLoadAsyncReadsTheDocumentsBack()
    {
        using DocumentStore store = await server.NewStoreAsync();
        var order = new Order { Company = "companies/1", Total = 12.5m, ShipTo = new Address { City = "Lyon" } };
        await using (var session = store.OpenAsyncSession())
        {
            await session.StoreAsync(order);
            Assert.Null(order.Id);
            await session.SaveChangesAsync();
        }
        Assert.Equal("orders/1", order.Id);
        await using var reader = store.OpenAsyncSession();
        Order? loaded = await reader.LoadAsync<Order>("orders/1");
        Assert.NotNull(loaded);
        Assert.Equal("orders/1", loaded.Id);
        Assert.Equal(12.5m, loaded.Total);
        Assert.Equal("Lyon", loaded.ShipTo!.City);
        Assert.Equal("Orders", (string?)reader.Advanced.GetMetadataFor(loaded)["@collection"]);
    }

    [Fact]
    public async Task StoreAsync_AssignsHiLoIdsBeforeSaving_UniqueAcrossStores()
    {
        using DocumentStore first = await server.NewStoreAsync(s => s.Conventions.IdGeneration = IdGeneration.HiLo);
        using var second = new DocumentStore { Urls = [server.Url], Database = first.Database, Conventions = { IdGeneration = IdGeneration.HiLo } };
        second.Initialize();
        var ids = new HashSet<string>();
        for (int round = 0; round < 4; round++)
        {
            foreach (DocumentStore store in new[] { first, second })
            {
                await using var session = store.OpenAsyncSession();
                for (int i = 0; i < 20; i++)
                {
                    var company = new Company { Name = "c" };
                    await session.StoreAsync(company);
                    Assert.NotNull(company.Id);
                    Assert.StartsWith("companies/", company.Id);
                    Assert.True(ids.Add(company.Id), $"{company.Id} was handed out twice");
                }
                await session.SaveChangesAsync();
            }
        }
        await using var check = first.OpenAsyncSession();
        Assert.Equal(160, await check.Query<Company>().CountAsync());
    }

    [Fact]
    public async Task LoadAsync_ReturnsTheSameObject_ForTheSameIdTwice_WithOneRequest()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        Order? first = await session.LoadAsync<Order>("orders/1");
        Order? second = await session.LoadAsync<Order>("ORDERS/1");
        Assert.Same(first, second);
        Assert.Equal(1, session.Advanced.NumberOfRequests);
    }

    [Fact]
    public async Task LoadAsync_ReturnsNull_ForAMissingDocument_AndRemembersIt()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        Assert.Null(await session.LoadAsync<Order>("orders/404"));
        Assert.Null(await session.LoadAsync<Order>("orders/404"));
        Assert.Equal(1, session.Advanced.NumberOfRequests);
    }

    [Fact]
    public async Task LoadAsync_OfManyIds_UsesOneRequest_AndMapsMissingOnesToNull()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        Dictionary<string, Order?> loaded = await session.LoadAsync<Order>(["orders/1", "orders/2", "orders/999"]);
        Assert.Equal(1, session.Advanced.NumberOfRequests);
        Assert.Equal("companies/1", loaded["orders/1"]!.Company);
        Assert.NotNull(loaded["orders/2"]);
        Assert.Null(loaded["orders/999"]);
    }

    [Fact]
    public async Task Include_BringsReferredDocuments_SoLoadingThemNeedsNoRequest()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        Order? order = await session.Include<Order>(o => o.Company).LoadAsync<Order>("orders/1");
        Company? company = await session.LoadAsync<Company>(order!.Company!);
        Assert.Equal("Acme", company!.Name);
        Assert.Equal(1, session.Advanced.NumberOfRequests);
    }

    [Fact]
    public async Task SaveChangesAsync_SendsOnlyChangedEntities_AndNothingWhenNothingChanged()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        Dictionary<string, Order?> orders = await session.LoadAsync<Order>(["orders/1", "orders/2"]);
        string? unchangedVector = session.Advanced.GetChangeVectorFor(orders["orders/2"]!);
        Assert.False(session.Advanced.HasChanges);
        await session.SaveChangesAsync();
        Assert.Equal(1, session.Advanced.NumberOfRequests);

        orders["orders/1"]!.Freight = 99;
        Assert.True(session.Advanced.HasChanged(orders["orders/1"]!));
        Assert.False(session.Advanced.HasChanged(orders["orders/2"]!));
        await session.SaveChangesAsync();
        Assert.Equal(2, session.Advanced.NumberOfRequests);
        Assert.Equal(unchangedVector, session.Advanced.GetChangeVectorFor(orders["orders/2"]!));

        await using var check = store.OpenAsyncSession();
        Assert.Equal(99, (await check.LoadAsync<Order>("orders/1"))!.Freight);
        Assert.Equal(unchangedVector, check.Advanced.GetChangeVectorFor((await check.LoadAsync<Order>("orders/2"))!));
    }

    [Fact]
    public async Task SaveChangesAsync_WritesStoresAndDeletesInOneTransaction_AllOrNothing()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using (var stale = store.OpenAsyncSession())
        {
            stale.Advanced.UseOptimisticConcurrency = true;
            Order order = (await stale.LoadAsync<Order>("orders/1"))!;
            await using (var other = store.OpenAsyncSession())
            {
                (await other.LoadAsync<Order>("orders/1"))!.Freight = 7;
                await other.SaveChangesAsync();
            }
            order.Freight = 8;
            await stale.StoreAsync(new Company { Id = "companies/new", Name = "New" });
            stale.Delete("orders/2");
            ConcurrencyException e = await Assert.ThrowsAsync<ConcurrencyException>(() => stale.SaveChangesAsync());
            Assert.Equal("urn:folio:problem:concurrency-conflict", e.ProblemType);
            Assert.Equal(System.Net.HttpStatusCode.Conflict, e.Status);
        }
        await using var check = store.OpenAsyncSession();
        Assert.Equal(7, (await check.LoadAsync<Order>("orders/1"))!.Freight);
        Assert.Null(await check.LoadAsync<Company>("companies/new"));
        Assert.NotNull(await check.LoadAsync<Order>("orders/2"));
    }

    [Fact]
    public async Task Delete_RemovesTheDocument_AndLoadInTheSessionAnswersNull()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using (var session = store.OpenAsyncSession())
        {
            Order order = (await session.LoadAsync<Order>("orders/1"))!;
            session.Delete(order);
            Assert.Null(await session.LoadAsync<Order>("orders/1"));
            await session.SaveChangesAsync();
        }
        await using var check = store.OpenAsyncSession();
        Assert.Null(await check.LoadAsync<Order>("orders/1"));
    }

    [Fact]
    public async Task TheRequestOverTheBudget_Throws_AndSaysWhy()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        for (int i = 0; i < 30; i++)
            await session.LoadAsync<Order>("orders/" + i);
        RequestBudgetExceededException e = await Assert.ThrowsAsync<RequestBudgetExceededException>(() => session.LoadAsync<Order>("orders/31"));
        Assert.Equal(30, e.Budget);
        Assert.Contains("30 requests", e.Message, StringComparison.Ordinal);
        Assert.Contains("Include", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Advanced_MetadataAddedByTheApplication_IsStored_AndChangeVectorMoves()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        string? before;
        await using (var session = store.OpenAsyncSession())
        {
            Order order = (await session.LoadAsync<Order>("orders/1"))!;
            before = session.Advanced.GetChangeVectorFor(order);
            Assert.NotNull(before);
            session.Advanced.GetMetadataFor(order)["Reviewed-By"] = "ann";
            Assert.True(session.Advanced.HasChanged(order));
            await session.SaveChangesAsync();
            Assert.NotEqual(before, session.Advanced.GetChangeVectorFor(order));
        }
        await using var check = store.OpenAsyncSession();
        Order reloaded = (await check.LoadAsync<Order>("orders/1"))!;
        Assert.Equal("ann", (string?)check.Advanced.GetMetadataFor(reloaded)["Reviewed-By"]);
    }

    [Fact]
    public async Task WaitForIndexesAfterSaveChanges_MakesTheNextQuerySeeTheWrite_WithoutWaitingForNonStale()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using (var warm = store.OpenAsyncSession())
            await warm.Query<Order>().Where(o => o.Employee == "nobody").Customize(c => c.WaitForNonStaleResults()).ToListAsync();
        await using (var session = store.OpenAsyncSession())
        {
            await session.StoreAsync(new Order { Employee = "late", Company = "companies/1" });
            session.Advanced.WaitForIndexesAfterSaveChanges(TimeSpan.FromSeconds(20));
            await session.SaveChangesAsync();
        }
        await using var check = store.OpenAsyncSession();
        List<Order> found = await check.Query<Order>().Statistics(out var stats).Where(o => o.Employee == "late").ToListAsync();
        Assert.Single(found);
        Assert.False(stats.IsStale);
    }

    [Fact]
    public async Task StoreAsync_OfASecondObjectWithATrackedId_Throws()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await using var session = store.OpenAsyncSession();
        await session.LoadAsync<Order>("orders/1");
        await Assert.ThrowsAsync<InvalidOperationException>(() => session.StoreAsync(new Order { Id = "orders/1" }));
    }

    [Fact]
    public async Task SaveChangesAsync_AfterASave_SendsTheEntityAgainOnlyWhenItChanged_AndTheBodyHasNoIdProperty()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        var company = new Company { Id = "companies/1", Name = "Acme" };
        await session.StoreAsync(company);
        await session.SaveChangesAsync();
        string? first = session.Advanced.GetChangeVectorFor(company);
        Assert.False(session.Advanced.HasChanges);
        await session.SaveChangesAsync();
        Assert.Equal(1, session.Advanced.NumberOfRequests);
        company.Name = "Acme Corp";
        await session.SaveChangesAsync();
        Assert.Equal(2, session.Advanced.NumberOfRequests);
        Assert.NotEqual(first, session.Advanced.GetChangeVectorFor(company));

        using var http = new HttpClient();
        string stored = await http.GetStringAsync($"{server.Url}/databases/{store.Database}/docs?id=companies/1");
        Newtonsoft.Json.Linq.JObject document = (Newtonsoft.Json.Linq.JObject)Newtonsoft.Json.Linq.JObject.Parse(stored)["Results"]![0]!;
        Assert.Equal("Acme Corp", (string?)document["Name"]);
        Assert.Null(document["Id"]);
        Assert.Equal("Companies", (string?)document["@metadata"]!["@collection"]);
    }
}
