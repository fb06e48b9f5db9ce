// A small tour of Folio.Client: run a Folio server, then
//   dotnet run --project examples/dotnet -- http://127.0.0.1:8080
using Folio.Client;
using Folio.Client.Linq;
using Folio.Example;

string url = args.Length > 0 ? args[0] : "http://127.0.0.1:8080";
string database = "Example-" + Guid.NewGuid().ToString("N")[..8];

using var store = new DocumentStore { Urls = [url], Database = database };
store.Initialize();
await store.Maintenance.CreateDatabaseAsync(database);

// A session is a unit of work: store, then save everything in one transaction.
await using (var session = store.OpenAsyncSession())
{
    var acme = new Company { Name = "Acme" };
    await session.StoreAsync(acme);
    await session.SaveChangesAsync(); // the server made acme.Id ("companies/1")
    await session.StoreAsync(new Order { Company = acme.Id, Product = "anvil", Total = 120 });
    await session.StoreAsync(new Order { Company = acme.Id, Product = "rocket skates", Total = 480 });
    await session.StoreAsync(new Order { Company = acme.Id, Product = "bird seed", Total = 15 });
    session.Advanced.WaitForIndexesAfterSaveChanges();
    await session.SaveChangesAsync();
}

// Load with an include, change a tracked entity, save only that change.
await using (var session = store.OpenAsyncSession())
{
    Order order = (await session.Include<Order>(o => o.Company).LoadAsync<Order>("orders/1"))!;
    Company company = (await session.LoadAsync<Company>(order.Company!))!; // no request: it came with the order
    order.Total += 10;
    await session.SaveChangesAsync();
    Console.WriteLine($"{order.Id} of {company.Name}: {order.Total} ({session.Advanced.NumberOfRequests} requests)");
}

// Query with LINQ; RQL with parameters is sent.
await using (var session = store.OpenAsyncSession())
{
    List<Order> big = await session.Query<Order>()
        .Customize(c => c.WaitForNonStaleResults())
        .Statistics(out QueryStatistics stats)
        .Where(o => o.Total > 100)
        .OrderByDescending(o => o.Total)
        .ToListAsync();
    Console.WriteLine($"{big.Count} of {stats.TotalResults} orders over 100 via {stats.IndexName}: {string.Join(", ", big.Select(o => o.Product))}");
    if (big.Count != 2 || big[0].Product != "rocket skates")
        throw new InvalidOperationException("The query answered the wrong orders.");

    var totals = await session.Advanced.RawQuery<CompanyTotal>("from Orders group by Company select Company, count() as Count, sum(Total) as Total")
        .WaitForNonStaleResults().ToListAsync();
    Console.WriteLine($"{totals[0].Company}: {totals[0].Count} orders, {totals[0].Total} in all");
}

// Stream many documents in, then count them.
await using (var bulk = store.BulkInsert())
{
    for (int i = 0; i < 1000; i++)
        await bulk.StoreAsync(new Order { Product = "sample", Total = i });
}
await using (var session = store.OpenAsyncSession())
{
    int count = await session.Query<Order>().Where(o => o.Product == "sample").CountAsync();
    Console.WriteLine($"bulk inserted {count} orders");
    if (count != 1000)
        throw new InvalidOperationException("The bulk insert lost documents.");
}

await store.Maintenance.DeleteDatabaseAsync(database);
Console.WriteLine("Client example ok");
