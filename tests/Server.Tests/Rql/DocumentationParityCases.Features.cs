using System.Globalization;
using static Folio.Server.Tests.Rql.ParityAnswer;
using static Folio.Server.Tests.Rql.ParityOracle;

namespace Folio.Server.Tests.Rql;

/// <summary>
/// The queries of the seeds' documentation pages on group by, facets, highlighting, spatial, JavaScript projections,
/// patching, distinct, more like this, intersect and debugging, written for the <see cref="Northwind"/> data set.
/// </summary>
public static partial class DocumentationParityCases
{
    /// <summary>Every query of the suite, in the order it runs (patches last: they change the data).</summary>
    public static IReadOnlyList<ParityCase> All { get; } = [.. Querying(), .. Features(), .. Patches()];

    private const string NotesOptions = """'{"Fields":["Notes"],"MinimumTermFrequency":1,"MinimumDocumentFrequency":1}'""";

    private static IEnumerable<ParityCase> Features() =>
    [
        // Group by (auto map/reduce) and a static map/reduce index.
        new("group by", "from Orders group by ShipTo.Country select ShipTo.Country as Country, count() as Count",
            d => Rows(d.Orders.GroupBy(o => o.ShipTo.Country).Select(g => new { Country = g.Key, Count = g.Count() }))),
        new("group by", "from Orders group by Company select Company, sum(Freight) as Freight",
            d => Rows(d.Orders.GroupBy(o => o.Company).Select(g => new { Company = g.Key, Freight = g.Sum(o => o.Freight) }))),
        new("group by", "from Orders group by ShipTo.Country, ShipVia select ShipTo.Country as Country, ShipVia, count() as Count",
            d => Rows(d.Orders.GroupBy(o => (o.ShipTo.Country, o.ShipVia)).Select(g => new { Country = g.Key.Country, g.Key.ShipVia, Count = g.Count() }))),
        new("group by", "from Orders group by Employee where Employee = 'employees/2-A' select Employee, count() as Count",
            d => Rows(d.Orders.Where(o => Eq(o.Employee, "employees/2-A")).GroupBy(o => o.Employee).Select(g => new { Employee = g.Key, Count = g.Count() }))),
        new("group by", "from Orders group by Lines[].Product select Lines[].Product as Product, count() as Count",
            d => Rows(d.Orders.SelectMany(o => o.Lines.Select(l => l.Product).Distinct()).GroupBy(p => p).Select(g => new { Product = g.Key, Count = g.Count() }))),
        new("group by", "from Orders group by array(Lines[].Product) select key() as Products, count() as Count",
            d => Rows(d.Orders.GroupBy(o => string.Join("\u0001", o.Lines.Select(l => l.Product))).Select(g => new { Products = g.First().Lines.Select(l => l.Product).ToList(), Count = g.Count() }))),
        new("map/reduce", "from index 'Orders/ByCompany' where Count > 5 order by Total as double desc",
            d => OrderedRows(d.Orders.GroupBy(o => o.Company).Where(g => g.Count() > 5).OrderByDescending(g => g.Sum(o => o.Freight))
                .Select(g => new { Company = g.Key, Count = g.Count(), Total = g.Sum(o => o.Freight) }))),

        // Exploration queries (filter).
        new("filter", "from Employees as e filter e.Address.Country = 'USA'",
            d => Ids(d.Employees.Where(e => Eq(e.Address.Country, "USA")).Select(e => e.Id))),
        new("filter", "from Employees as e where e.Title = 'Sales Representative' filter e.Address.Country = 'USA' filter_limit 500",
            d => Ids(d.Employees.Where(e => Eq(e.Title, "Sales Representative") && Eq(e.Address.Country, "USA")).Select(e => e.Id))),
        new("filter", "from index 'Orders/ByCompany' filter Count > 10",
            d => Rows(d.Orders.GroupBy(o => o.Company).Where(g => g.Count() > 10).Select(g => new { Company = g.Key, Count = g.Count(), Total = g.Sum(o => o.Freight) }))),

        // Facets.
        new("facets", "from index 'Products/Search' select facet(Category)",
            d => FacetValues(d.Products.GroupBy(p => p.Category).Select(g => ("Category", g.Key, g.Count())))),
        new("facets", "from index 'Products/Search' select facet(PricePerUnit < 10, PricePerUnit between 10 and 50, PricePerUnit > 50)",
            d => FacetValues([
                ("PricePerUnit", "PricePerUnit < 10", d.Products.Count(p => p.PricePerUnit < 10)),
                ("PricePerUnit", "PricePerUnit between 10 and 50", d.Products.Count(p => p.PricePerUnit is >= 10 and <= 50)),
                ("PricePerUnit", "PricePerUnit > 50", d.Products.Count(p => p.PricePerUnit > 50)),
            ])),
        new("facets", "from index 'Products/Search' where UnitsInStock > 0 select facet(Category) as Categories, facet(Supplier)",
            d => FacetValues(d.Products.Where(p => p.UnitsInStock > 0).GroupBy(p => p.Category).Select(g => ("Categories", g.Key, g.Count()))
                .Concat(d.Products.Where(p => p.UnitsInStock > 0).GroupBy(p => p.Supplier).Select(g => ("Supplier", g.Key, g.Count()))))),

        // Highlighting.
        new("highlighting", "from index 'Employees/ByNotes' where search(Notes, 'marketing') include highlight(Notes, 35, 4)",
            d => Ids(d.Employees.Where(e => Words(e.Notes).Contains("marketing")).Select(e => e.Id))),

        // Spatial.
        new("spatial", "from Companies where spatial.within(spatial.point(Address.Location.Latitude, Address.Location.Longitude), spatial.circle(500, 48.8566, 2.3522))",
            d => Ids(d.Companies.Where(c => DistanceKm(c.Address.Location.Latitude, c.Address.Location.Longitude, 48.8566, 2.3522) <= 500).Select(c => c.Id))) { Pending = Spatial },
        new("spatial", "from Companies where spatial.within(spatial.point(Address.Location.Latitude, Address.Location.Longitude), spatial.circle(100, 51.5072, -0.1276, 'miles'))",
            d => Ids(d.Companies.Where(c => DistanceKm(c.Address.Location.Latitude, c.Address.Location.Longitude, 51.5072, -0.1276) <= 160.9344).Select(c => c.Id))) { Pending = Spatial },
        new("spatial", "from Companies where spatial.within(spatial.point(Address.Location.Latitude, Address.Location.Longitude), spatial.wkt('POLYGON((-10 35, 20 35, 20 60, -10 60, -10 35))'))",
            d => Ids(d.Companies.Where(c => c.Address.Location.Latitude is > 35 and < 60 && c.Address.Location.Longitude is > -10 and < 20).Select(c => c.Id))) { Pending = Spatial },
        new("spatial", "from Companies order by spatial.distance(spatial.point(Address.Location.Latitude, Address.Location.Longitude), spatial.point(48.8566, 2.3522))",
            d => OrderedIds(d.Companies.OrderBy(c => DistanceKm(c.Address.Location.Latitude, c.Address.Location.Longitude, 48.8566, 2.3522)).Select(c => c.Id))) { Pending = Spatial },

        // JavaScript projections.
        new("js projections", "from Orders as o where o.Freight > 110 select { Total: o.Lines.reduce((sum, l) => sum + l.PricePerUnit * l.Quantity, 0) }",
            d => Rows(d.Orders.Where(o => o.Freight > 110).Select(o => new { Total = o.Lines.Sum(l => l.PricePerUnit * l.Quantity) }))) { Pending = Js },
        new("js projections", "declare function fullName(e) { return e.FirstName + ' ' + e.LastName; } from Employees as e select { Name: fullName(e) }",
            d => Rows(d.Employees.Select(e => new { Name = e.FirstName + " " + e.LastName }))) { Pending = Js },
        new("js projections", "declare function output(e) { var format = function(p) { return p.FirstName + ' ' + p.LastName; }; return { FullName: format(e) }; } from Employees as e select output(e)",
            d => Rows(d.Employees.Select(e => new { FullName = e.FirstName + " " + e.LastName }))) { Pending = Js },
        new("projections", "from Orders as o where id() = 'orders/1-A' load o.Company as c select c.Name as CompanyName, o.Freight as Freight",
            d => Rows([new { CompanyName = d.Companies.Single(c => Eq(c.Id, d.Orders[0].Company)).Name, d.Orders[0].Freight }])),
        new("js projections", "from Orders as o where id() = 'orders/1-A' load o.Company as c select { CompanyName: c.Name, Freight: o.Freight }",
            d => Rows([new { CompanyName = d.Companies.Single(c => Eq(c.Id, d.Orders[0].Company)).Name, d.Orders[0].Freight }])) { Pending = Js },
        new("js projections", "from Orders as o where o.Company = 'companies/5-A' select { Products: o.Lines.map(l => l.ProductName), Count: o.Lines.length }",
            d => Rows(d.Orders.Where(o => Eq(o.Company, "companies/5-A")).Select(o => new { Products = o.Lines.Select(l => l.ProductName).ToList(), Count = o.Lines.Count }))) { Pending = Js },

        // Distinct.
        new("distinct", "from Orders select distinct ShipTo.Country as Country", d => Rows(d.Orders.Select(o => o.ShipTo.Country).Distinct().Select(c => new { Country = c }))) { Pending = Ops },
        new("distinct", "from Employees select distinct Title", d => Rows(d.Employees.Select(e => e.Title).Distinct().Select(t => new { Title = t }))) { Pending = Ops },

        // More like this.
        new("more like this", $"from index 'Employees/ByNotes' where morelikethis(id() = 'employees/1-A', {NotesOptions})",
            d => Ids(MoreLikeThis([.. d.Employees.Select(e => (e.Id, e.Notes))], "employees/1-A", d.Employees[0].Notes, 1, 1, 25))),
        new("more like this", "from index 'Employees/ByNotes' where morelikethis(id() = $id, $options)",
            d => Ids(MoreLikeThis([.. d.Employees.Select(e => (e.Id, e.Notes))], "employees/4-A", d.Employees[3].Notes, 2, 2, 3)))
        {
            Parameters = new { id = "employees/4-A", options = new { Fields = new[] { "Notes" }, MinimumTermFrequency = 2, MinimumDocumentFrequency = 2, MaximumQueryTerms = 3 } },
        },
        new("more like this", $$"""from index 'Employees/ByNotes' where morelikethis('{"Notes":"chemistry budget travel"}', {{NotesOptions}})""",
            d => Ids(MoreLikeThis([.. d.Employees.Select(e => (e.Id, e.Notes))], null, "chemistry budget travel", 1, 1, 25))),

        // Intersect: over a multi-valued field, and (the seeds' case) over the objects of an array.
        new("intersect", "from index 'Orders/ByProduct' where intersect(Product = 'products/1-A', Product = 'products/2-A')",
            d => Ids(d.Orders.Where(o => o.Lines.Any(l => l.Product == "products/1-A") && o.Lines.Any(l => l.Product == "products/2-A")).Select(o => o.Id))),
        new("intersect", "from index 'Orders/ByLine' where intersect(Product = 'products/1-A' and Quantity >= 10, Product = 'products/2-A' and Quantity < 10)",
            d => Ids(d.Orders.Where(o => o.Lines.Any(l => l.Product == "products/1-A" && l.Quantity >= 10) && o.Lines.Any(l => l.Product == "products/2-A" && l.Quantity < 10)).Select(o => o.Id))),
        new("intersect", "from index 'Orders/ByLine' where Product = 'products/1-A' and Quantity > 20",
            d => Ids(d.Orders.Where(o => o.Lines.Any(l => l.Product == "products/1-A" && l.Quantity > 20)).Select(o => o.Id))),
        new("intersect", "from Orders where intersect(Freight > 20, ShipTo.Country = 'France')",
            d => Ids(d.Orders.Where(o => o.Freight > 20 && Eq(o.ShipTo.Country, "France")).Select(o => o.Id))),

        // Debugging.
        new("debugging", "from Orders where Freight > 100 include timings()", d => Ids(d.Orders.Where(o => o.Freight > 100).Select(o => o.Id))) { Pending = Ops },
        new("debugging", "from index 'Employees/ByNotes' where search(Notes, 'french') include explanations()",
            d => Ids(d.Employees.Where(e => Words(e.Notes).Contains("french")).Select(e => e.Id))) { Pending = Ops },
    ];

    private static IEnumerable<ParityCase> Patches() =>
    [
        new("patching", "from Orders where Freight < 5 update { this.Freight += 10; }", _ => Ids([]))
        {
            Pending = Js,
            Patch = d => new("Orders", "Freight", d.Orders.ToDictionary(o => o.Id, o => Number(o.Freight < 5 ? o.Freight + 10 : o.Freight))),
        },
        new("patching", "from Products where Discontinued = true update { this.UnitsInStock = 0; }", _ => Ids([]))
        {
            Pending = Js,
            Patch = d => new("Products", "UnitsInStock", d.Products.ToDictionary(p => p.Id, p => Number(p.Discontinued ? 0 : p.UnitsInStock))),
        },
        new("patching", "from index 'Products/Search' where Category = 'categories/1-A' update { this.PricePerUnit = this.PricePerUnit * 2; }", _ => Ids([]))
        {
            Pending = Js,
            Patch = d => new("Products", "PricePerUnit", d.Products.ToDictionary(p => p.Id, p => Number(Eq(p.Category, "categories/1-A") ? p.PricePerUnit * 2 : p.PricePerUnit))),
        },
        new("patching", "from Employees update { this.Title = this.Title + ' (reviewed)'; }", _ => Ids([]))
        {
            Pending = Js,
            Patch = d => new("Employees", "Title", d.Employees.ToDictionary(e => e.Id, e => Canonical.Of(e.Title + " (reviewed)"))),
        },
    ];

    private static string Number(double value) => value.ToString("R", CultureInfo.InvariantCulture);
}
