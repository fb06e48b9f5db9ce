namespace Folio.Client.Tests.Support;

public sealed class Order
{
    public string? Id { get; set; }

    public string? Company { get; set; }

    public string? Employee { get; set; }

    public decimal Total { get; set; }

    public int Freight { get; set; }

    public bool Paid { get; set; }

    public string? Notes { get; set; }

    public List<string> Tags { get; set; } = [];

    public Address? ShipTo { get; set; }
}

public sealed class Address
{
    public string? City { get; set; }

    public string? Country { get; set; }
}

public sealed class Company
{
    public string? Id { get; set; }

    public string? Name { get; set; }
}

public sealed class Category
{
    public string? Id { get; set; }

    public string? Name { get; set; }
}

public sealed class OrderSummary
{
    public string? Id { get; set; }

    public string? Company { get; set; }

    public decimal Amount { get; set; }
}
