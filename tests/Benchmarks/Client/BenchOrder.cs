namespace Folio.Benchmarks.Client;

/// <summary>The entity client-overhead loads and stores: an order of a realistic size (about 400 bytes of JSON).</summary>
public sealed class BenchOrder
{
    public string? Id { get; set; }

    public string? Company { get; set; }

    public string? Employee { get; set; }

    public decimal Total { get; set; }

    public int Freight { get; set; }

    public string? ShipVia { get; set; }

    public BenchAddress? ShipTo { get; set; }

    public List<BenchLine> Lines { get; set; } = [];

    public static BenchOrder Make(int i) => new()
    {
        Company = "companies/" + (i % 100),
        Employee = "employees/" + (i % 9),
        Total = 10 + (i % 997),
        Freight = i % 50,
        ShipVia = "shippers/" + (i % 3),
        ShipTo = new BenchAddress { Line1 = i + " Rue de la Paix", City = "Lyon", PostalCode = "69000", Country = "France" },
        Lines =
        [
            new BenchLine { Product = "products/" + (i % 77), Quantity = 1 + (i % 9), PricePerUnit = 4.5m },
            new BenchLine { Product = "products/" + ((i + 5) % 77), Quantity = 2, PricePerUnit = 19.99m },
        ],
    };
}

public sealed class BenchAddress
{
    public string? Line1 { get; set; }

    public string? City { get; set; }

    public string? PostalCode { get; set; }

    public string? Country { get; set; }
}

public sealed class BenchLine
{
    public string? Product { get; set; }

    public int Quantity { get; set; }

    public decimal PricePerUnit { get; set; }
}
