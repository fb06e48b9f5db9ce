using Folio.Client.Exceptions;
using Folio.Client.Linq;
using Folio.Client.Tests.Support;

namespace Folio.Client.Tests.BulkInsert;

[Collection(ServerCollection.Name)]
public class BulkInsertTests(TestServer server)
{
    [Fact]
    public async Task BulkInsert_StoresEveryEntity_WithHiLoIds_InSeveralChunks()
    {
        using DocumentStore store = await server.NewStoreAsync();
        var orders = new List<Order>();
        Client.BulkInsert.BulkInsertOperation bulk = store.BulkInsert();
        await using (bulk)
        {
            for (int i = 0; i < 5000; i++)
            {
                var order = new Order { Employee = "e" + i, Freight = i, Notes = new string('x', 40) };
                await bulk.StoreAsync(order);
                orders.Add(order);
            }
        }
        Assert.Equal(5000, bulk.Count);
        Assert.NotNull(bulk.Result);
        Assert.Equal(5000, bulk.Result.Documents);
        Assert.Equal(5000, orders.Select(o => o.Id).Distinct().Count());

        await using var session = store.OpenAsyncSession();
        Assert.Equal(5000, await session.Query<Order>().CountAsync());
        Order? sample = await session.LoadAsync<Order>(orders[4321].Id!);
        Assert.Equal(4321, sample!.Freight);
        Assert.Equal("Orders", (string?)session.Advanced.GetMetadataFor(sample)["@collection"]);
    }

    [Fact]
    public async Task BulkInsert_WithABadId_ThrowsTheServersProblem_AndKeepsTheCommandsBeforeIt()
    {
        using DocumentStore store = await server.NewStoreAsync();
        FolioException e = await Assert.ThrowsAnyAsync<FolioException>(async () =>
        {
            await using Client.BulkInsert.BulkInsertOperation bulk = store.BulkInsert();
            await bulk.StoreAsync(new Company { Name = "ok" }, "companies/1");
            await bulk.StoreAsync(new Company { Name = "bad" }, new string('x', 3000));
        });
        Assert.Equal(System.Net.HttpStatusCode.BadRequest, e.Status);
        await using var session = store.OpenAsyncSession();
        Assert.NotNull(await session.LoadAsync<Company>("companies/1"));
    }

    [Fact]
    public async Task BulkInsert_WithNothingStored_Finishes()
    {
        using DocumentStore store = await server.NewStoreAsync();
        Client.BulkInsert.BulkInsertOperation bulk = store.BulkInsert();
        await bulk.DisposeAsync();
        Assert.Equal(0, bulk.Result!.Documents);
    }
}
