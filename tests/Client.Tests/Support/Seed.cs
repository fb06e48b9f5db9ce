namespace Folio.Client.Tests.Support;

/// <summary>Small data sets stored through the client under known ids.</summary>
public static class Seed
{
    public static async Task<DocumentStore> OrdersAsync(TestServer server)
    {
        DocumentStore store = await server.NewStoreAsync();
        await using var session = store.OpenAsyncSession();
        await session.StoreAsync(new Company { Id = "companies/1", Name = "Acme" });
        await session.StoreAsync(new Company { Id = "companies/2", Name = "Globex" });
        await session.StoreAsync(new Order { Id = "orders/1", Company = "companies/1", Employee = "ann", Total = 120, Freight = 10, Paid = true, Notes = "late delivery of the parcel", Tags = ["rush", "gift"], ShipTo = new Address { City = "Lyon", Country = "France" } });
        await session.StoreAsync(new Order { Id = "orders/2", Company = "companies/2", Employee = "bob", Total = 80, Freight = 20, Paid = false, Notes = "on time", Tags = ["gift"], ShipTo = new Address { City = "Madrid", Country = "Spain" } });
        await session.StoreAsync(new Order { Id = "orders/3", Company = "companies/1", Employee = "ann", Total = 300, Freight = 5, Paid = false, Notes = "delivery was early", Tags = [], ShipTo = new Address { City = "Paris", Country = "France" } });
        await session.StoreAsync(new Order { Id = "orders/4", Company = "companies/2", Employee = "carl", Total = 45.5m, Freight = 30, Paid = true, Notes = "damaged box", Tags = ["rush"], ShipTo = new Address { City = "Berlin", Country = "Germany" } });
        await session.SaveChangesAsync();
        return store;
    }
}
