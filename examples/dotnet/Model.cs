namespace Folio.Example;

public sealed class Company
{
    public string? Id { get; set; }

    public string? Name { get; set; }
}

public sealed class Order
{
    public string? Id { get; set; }

    public string? Company { get; set; }

    public string? Product { get; set; }

    public decimal Total { get; set; }
}

public sealed class CompanyTotal
{
    public string? Company { get; set; }

    public int Count { get; set; }

    public decimal Total { get; set; }
}
