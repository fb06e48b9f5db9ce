using static Folio.Server.Tests.Rql.ParityAnswer;
using static Folio.Server.Tests.Rql.ParityOracle;

namespace Folio.Server.Tests.Rql;

/// <summary>
/// The queries of the seeds' documentation pages on querying basics, filtering, full-text search, sorting, paging,
/// projections and includes, and fuzzy and proximity search, written for the <see cref="Northwind"/> data set; each with
/// its oracle. To add a query, add a line: its topic, its RQL and the LINQ that answers it.
/// </summary>
public static partial class DocumentationParityCases
{
    /// <summary>The branches building features of issue 29 in parallel: queries needing them are refused here today.</summary>
    public const string Ops = "rql-ops";
    public const string Js = "rql-js";
    public const string Spatial = "rql-spatial";

    private static IEnumerable<ParityCase> Querying() =>
    [
        // Querying basics and filtering.
        new("basics", "from Employees", d => Ids(d.Employees.Select(e => e.Id))),
        new("basics", "from Employees where FirstName = 'Robert'", d => Ids(d.Employees.Where(e => Eq(e.FirstName, "Robert")).Select(e => e.Id))),
        new("basics", "from Employees where FirstName = 'robert' and LastName = 'King'", d => Ids(d.Employees.Where(e => Eq(e.FirstName, "robert") && Eq(e.LastName, "King")).Select(e => e.Id))),
        new("filtering", "from Orders where Freight > 50 and ShipTo.Country = 'Germany'", d => Ids(d.Orders.Where(o => o.Freight > 50 && Eq(o.ShipTo.Country, "Germany")).Select(o => o.Id))),
        new("filtering", "from Orders where Freight between 10 and 20", d => Ids(d.Orders.Where(o => o.Freight is >= 10 and <= 20).Select(o => o.Id))),
        new("filtering", "from Orders where ShipTo.Country in ('France', 'Spain')", d => Ids(d.Orders.Where(o => Eq(o.ShipTo.Country, "France") || Eq(o.ShipTo.Country, "Spain")).Select(o => o.Id))),
        new("filtering", "from Companies where startsWith(Name, 'Fo')", d => Ids(d.Companies.Where(c => c.Name.StartsWith("fo", StringComparison.OrdinalIgnoreCase)).Select(c => c.Id))),
        new("filtering", "from Companies where endsWith(Name, 'Handel')", d => Ids(d.Companies.Where(c => c.Name.EndsWith("handel", StringComparison.OrdinalIgnoreCase)).Select(c => c.Id))),
        new("filtering", "from Companies where exists(Address.Region)", d => Ids(d.Companies.Where(c => c.Address.Region is not null).Select(c => c.Id))),
        new("filtering", "from Orders where Employee != 'employees/1-A'", d => Ids(d.Orders.Where(o => !Eq(o.Employee, "employees/1-A")).Select(o => o.Id))),
        new("filtering", "from Orders where true and not exists(ShippedAt)", d => Ids(d.Orders.Where(o => o.ShippedAt is null).Select(o => o.Id))) { Pending = Ops },
        new("filtering", "from Orders where exists(Freight) and not exists(ShippedAt)", d => Ids(d.Orders.Where(o => o.ShippedAt is null).Select(o => o.Id))),
        new("filtering", "from Products where Discontinued = true", d => Ids(d.Products.Where(p => p.Discontinued).Select(p => p.Id))),
        new("filtering", "from Orders where id() = 'orders/5-A'", d => Ids(["orders/5-A"])),
        new("filtering", "from Orders where id() in ('orders/1-A', 'orders/2-A', 'orders/999-A')", d => Ids(["orders/1-A", "orders/2-A"])),
        new("filtering", "from Products where PricePerUnit >= 20 and PricePerUnit < 40 and UnitsInStock > 0",
            d => Ids(d.Products.Where(p => p.PricePerUnit is >= 20 and < 40 && p.UnitsInStock > 0).Select(p => p.Id))),
        new("filtering", "from Orders where Lines[].ProductName = 'Chai'", d => Ids(d.Orders.Where(o => o.Lines.Any(l => Eq(l.ProductName, "Chai"))).Select(o => o.Id))),
        new("filtering", "from Orders where Lines[].Quantity > 25", d => Ids(d.Orders.Where(o => o.Lines.Any(l => l.Quantity > 25)).Select(o => o.Id))),
        new("filtering", "from Employees where Address.Country = 'USA' or Title = 'Sales Manager'",
            d => Ids(d.Employees.Where(e => Eq(e.Address.Country, "USA") || Eq(e.Title, "Sales Manager")).Select(e => e.Id))),
        new("filtering", "from Orders where Company = $company", d => Ids(d.Orders.Where(o => Eq(o.Company, "companies/3-A")).Select(o => o.Id))) { Parameters = new { company = "companies/3-A" } },
        new("filtering", "from Products where exact(Name = 'Chai')", d => Ids(d.Products.Where(p => p.Name == "Chai").Select(p => p.Id))) { Pending = Ops },
        new("filtering", "from Products where exact(Name = 'chai')", d => Ids(d.Products.Where(p => p.Name == "chai").Select(p => p.Id))) { Pending = Ops },
        new("filtering", "from Companies where regex(Name, '^[NA]')", d => Ids(d.Companies.Where(c => c.Name.StartsWith('N') || c.Name.StartsWith('A')).Select(c => c.Id))) { Pending = Ops },
        new("filtering", "from Orders where Lines[].ProductName all in ('Chai', 'Chang', 'Ikura')",
            d => Ids(d.Orders.Where(o => new[] { "Chai", "Chang", "Ikura" }.All(name => o.Lines.Any(l => Eq(l.ProductName, name)))).Select(o => o.Id))) { Pending = Ops },
        new("filtering", "from Orders where Lines[].ProductName in ('Chai', 'Chang')",
            d => Ids(d.Orders.Where(o => o.Lines.Any(l => Eq(l.ProductName, "Chai") || Eq(l.ProductName, "Chang"))).Select(o => o.Id))),

        // Sorting and paging.
        new("sorting", "from Products order by PricePerUnit as double desc", d => OrderedIds(d.Products.OrderByDescending(p => p.PricePerUnit).Select(p => p.Id))),
        new("sorting", "from Products order by Name", d => OrderedIds(d.Products.OrderBy(p => p.Name.ToLowerInvariant(), StringComparer.Ordinal).Select(p => p.Id))),
        new("sorting", "from Products where UnitsInStock > 10 order by UnitsInStock as long desc, Name",
            d => OrderedIds(d.Products.Where(p => p.UnitsInStock > 10).OrderByDescending(p => p.UnitsInStock).ThenBy(p => p.Name.ToLowerInvariant(), StringComparer.Ordinal).Select(p => p.Id))),
        new("sorting", "from Products order by Name as alphanumeric", d => OrderedIds(d.Products.OrderBy(p => p.Name, Comparer<string>.Create(Alphanumeric)).Select(p => p.Id))) { Pending = Ops },
        new("sorting", "from Products order by random()", d => Ids(d.Products.Select(p => p.Id))) { Pending = Ops },
        new("sorting", "from Orders where Freight > 100 order by Freight as double", d => OrderedIds(d.Orders.Where(o => o.Freight > 100).OrderBy(o => o.Freight).Select(o => o.Id))),
        new("paging", "from Products order by Name limit 10", d => OrderedIds(d.Products.OrderBy(p => p.Name.ToLowerInvariant(), StringComparer.Ordinal).Take(10).Select(p => p.Id))),
        new("paging", "from Products order by Name limit 10 offset 20", d => OrderedIds(d.Products.OrderBy(p => p.Name.ToLowerInvariant(), StringComparer.Ordinal).Skip(20).Take(10).Select(p => p.Id))),
        new("paging", "from Products order by Name limit 20, 5", d => OrderedIds(d.Products.OrderBy(p => p.Name.ToLowerInvariant(), StringComparer.Ordinal).Skip(20).Take(5).Select(p => p.Id))),
        new("paging", "from Orders order by Freight as double desc limit 5", d => OrderedIds(d.Orders.OrderByDescending(o => o.Freight).Take(5).Select(o => o.Id))),

        // Projections and includes.
        new("projections", "from Companies select Name, Address.City as City", d => Rows(d.Companies.Select(c => new { c.Name, c.Address.City }))),
        new("projections", "from Employees where Title = 'Sales Manager' select FirstName, LastName",
            d => Rows(d.Employees.Where(e => Eq(e.Title, "Sales Manager")).Select(e => new { e.FirstName, e.LastName }))),
        new("projections", "from Orders where Company = 'companies/1-A' select Lines[].ProductName as Products",
            d => Rows(d.Orders.Where(o => Eq(o.Company, "companies/1-A")).Select(o => new { Products = o.Lines.Select(l => l.ProductName).ToList() }))),
        new("projections", "from Orders as o where o.Freight > 110 select o.Freight as Freight, o.ShipTo.City as City",
            d => Rows(d.Orders.Where(o => o.Freight > 110).Select(o => new { o.Freight, o.ShipTo.City }))) { Pending = Js },
        new("projections", "from Orders where ShipTo.Country = 'Germany' order by Freight as double desc select Freight, ShipTo.City as City limit 3",
            d => OrderedRows(d.Orders.Where(o => Eq(o.ShipTo.Country, "Germany")).OrderByDescending(o => o.Freight).Take(3).Select(o => new { o.Freight, o.ShipTo.City }))),
        new("includes", "from Orders where id() = 'orders/3-A' include Company",
            d => Ids(["orders/3-A"]) with { Includes = [d.Orders[2].Company] }),
        new("includes", "from Orders where Company = 'companies/2-A' include Employee, Company",
            d => Ids(d.Orders.Where(o => Eq(o.Company, "companies/2-A")).Select(o => o.Id)) with
            {
                Includes = [.. d.Orders.Where(o => Eq(o.Company, "companies/2-A")).SelectMany(o => new[] { o.Employee, o.Company }).Distinct(StringComparer.OrdinalIgnoreCase)],
            }),

        // Full-text search.
        new("full-text", "from Employees where search(Notes, 'french')", d => Ids(d.Employees.Where(e => Words(e.Notes).Contains("french")).Select(e => e.Id))),
        new("full-text", "from Employees where search(Notes, 'french spanish')", d => Ids(d.Employees.Where(e => Words(e.Notes).Intersect(["french", "spanish"]).Any()).Select(e => e.Id))),
        new("full-text", "from Employees where search(Notes, 'french spanish', and)",
            d => Ids(d.Employees.Where(e => Words(e.Notes).Contains("french") && Words(e.Notes).Contains("spanish")).Select(e => e.Id))) { Pending = Ops },
        new("full-text", "from Employees where search(Notes, 'tech*')", d => Ids(d.Employees.Where(e => Words(e.Notes).Any(w => w.StartsWith("tech", StringComparison.Ordinal))).Select(e => e.Id))),
        new("full-text", "from Employees where search(Notes, 'sales') and Address.Country = 'UK'",
            d => Ids(d.Employees.Where(e => Words(e.Notes).Contains("sales") && Eq(e.Address.Country, "UK")).Select(e => e.Id))),
        new("full-text", "from Employees where boost(search(Notes, 'chemistry'), 10) or search(Notes, 'psychology') order by score()",
            d => Ids(d.Employees.Where(e => Words(e.Notes).Intersect(["chemistry", "psychology"]).Any()).Select(e => e.Id))),
        new("full-text", "from index 'Products/Search' where search(Name, 'queso')", d => Ids(d.Products.Where(p => Words(p.Name).Contains("queso")).Select(p => p.Id))),

        // Lucene's own syntax, as the seeds' clients' WhereLucene writes it.
        new("lucene", "from Employees where lucene(Notes, 'french')", d => Ids(d.Employees.Where(e => Words(e.Notes).Contains("french")).Select(e => e.Id))),
        new("lucene", "from Employees where lucene(Notes, 'french AND NOT spanish')",
            d => Ids(d.Employees.Where(e => Words(e.Notes).Contains("french") && !Words(e.Notes).Contains("spanish")).Select(e => e.Id))),
        new("lucene", "from Employees where lucene(Notes, '+sales (french OR psychology)')",
            d => Ids(d.Employees.Where(e => Words(e.Notes).Contains("sales")).Select(e => e.Id))),
        new("lucene", "from Employees where lucene(Notes, $q)",
            d => Ids(d.Employees.Where(e => Words(e.Notes).Any(w => w.StartsWith("tech", StringComparison.Ordinal)) || Words(e.Notes).Contains("chemistry")).Select(e => e.Id)))
        {
            Parameters = new { q = "tech* chemistry" },
        },
        new("lucene", "from Products where lucene(PricePerUnit, '[20 TO 40}') and UnitsInStock > 0",
            d => Ids(d.Products.Where(p => p.PricePerUnit is >= 20 and < 40 && p.UnitsInStock > 0).Select(p => p.Id))),

        // Fuzzy and proximity.
        new("fuzzy", "from Products where fuzzy(Name = 'Chaii', 1)", d => Ids(d.Products.Where(p => Edits(p.Name, "Chaii") <= 1).Select(p => p.Id))),
        new("fuzzy", "from Employees where search(Notes, 'frnech~1')", d => Ids(d.Employees.Where(e => Words(e.Notes).Any(w => Edits(w, "frnech") <= 1)).Select(e => e.Id))),
        new("proximity", "from Employees where proximity(search(Notes, 'fluent french'), 0)", d => Ids(d.Employees.Where(e => Near(e.Notes, "fluent", "french", 0)).Select(e => e.Id))),
        new("proximity", "from Employees where proximity(search(Notes, 'fluent french'), 2)", d => Ids(d.Employees.Where(e => Near(e.Notes, "fluent", "french", 2)).Select(e => e.Id))),
    ];
}
