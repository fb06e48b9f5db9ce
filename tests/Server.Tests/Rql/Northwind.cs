using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Folio.Server.Tests.Rql;

/// <summary>
/// A Northwind-shaped data set generated from a seed: categories, products, companies, employees and orders with the
/// shapes the seeds' documentation queries (nested addresses with a location, order lines, notes). Values are chosen so
/// an oracle can answer without ambiguity: prices and freights are distinct multiples of 1/4 (sums exact, orders
/// without ties), names are distinct, notes use words that are their own stems and no stop words, and the cities lie
/// far from every circle's edge the queries draw. Null properties are left out of the documents (so exists() tells them apart).
/// </summary>
public sealed class Northwind
{
    public static readonly string[] CategoryNames = ["Beverages", "Condiments", "Confections", "Dairy Products", "Grains/Cereals", "Meat/Poultry", "Produce", "Seafood"];

    public static readonly string[] ProductNames =
    [
        "Chai", "Chang", "Aniseed Syrup", "Chef Anton's Cajun Seasoning", "Grandma's Boysenberry Spread", "Uncle Bob's Organic Dried Pears",
        "Northwoods Cranberry Sauce", "Mishi Kobe Niku", "Ikura", "Queso Cabrales", "Queso Manchego La Pastora", "Konbu", "Tofu",
        "Genen Shouyu", "Pavlova", "Alice Mutton", "Carnarvon Tigers", "Teatime Chocolate Biscuits", "Sir Rodney's Marmalade",
        "Sir Rodney's Scones", "Gustaf's Knackebrod", "Tunnbrod", "Guarana Fantastica", "NuNuCa Nuss-Nougat-Creme", "Gumbar Gummibarchen",
        "Schoggi Schokolade", "Rossle Sauerkraut", "Thuringer Rostbratwurst", "Nord-Ost Matjeshering", "Gorgonzola Telino",
        "Mascarpone Fabioli", "Geitost", "Sasquatch Ale", "Steeleye Stout", "Inlagd Sill", "Gravad lax", "Cote de Blaye",
        "Chartreuse verte", "Boston Crab Meat", "Jack's New England Clam Chowder", "Chocolade", "Maxilaku", "Valkoinen suklaa",
        "Manjimup Dried Apples", "Filo Mix", "Perth Pasties", "Tourtiere", "Pate chinois", "Product 10", "Product 9",
    ];

    public static readonly string[] CompanyNames =
    [
        "Alfreds Futterkiste", "Ana Trujillo Emparedados", "Antonio Moreno Taqueria", "Around the Horn", "Berglunds snabbkop",
        "Blauer See Delikatessen", "Blondel pere et fils", "Bolido Comidas preparadas", "Bon app", "Bottom-Dollar Markets",
        "B's Beverages", "Cactus Comidas para llevar", "Centro comercial Moctezuma", "Chop-suey Chinese", "Comercio Mineiro",
        "Consolidated Holdings", "Drachenblut Delikatessen", "Du monde entier", "Eastern Connection", "Ernst Handel",
        "Familia Arquibaldo", "FISSA Fabrica Inter. Salchichas", "Folies gourmandes", "Folk och fa HB", "Frankenversand",
        "France restauration", "Franchi S.p.A.", "Furia Bacalhau e Frutos do Mar", "Galeria del gastronomo", "Godos Cocina Tipica",
    ];

    /// <summary>Cities with their country and location; the queries' circles and polygons keep clear of their edges.</summary>
    public static readonly (string City, string Country, double Latitude, double Longitude)[] Cities =
    [
        ("Paris", "France", 48.8566, 2.3522), ("Lyon", "France", 45.7640, 4.8357), ("London", "UK", 51.5072, -0.1276),
        ("Berlin", "Germany", 52.5200, 13.4050), ("Munich", "Germany", 48.1351, 11.5820), ("Madrid", "Spain", 40.4168, -3.7038),
        ("Seattle", "USA", 47.6062, -122.3321), ("Boston", "USA", 42.3601, -71.0589), ("Tokyo", "Japan", 35.6762, 139.6503),
    ];

    public static readonly string[] Titles = ["Sales Representative", "Sales Manager", "Vice President, Sales", "Inside Sales Coordinator"];

    public static readonly string[] FirstNames = ["Nancy", "Andrew", "Janet", "Margaret", "Steven", "Michael", "Robert", "Laura", "Anne", "Ernst", "Maria", "Robert"];

    public static readonly string[] LastNames = ["Davolio", "Fuller", "Leverling", "Peacock", "Buchanan", "Suyama", "King", "Callahan", "Dodsworth", "Handel", "Anders", "Smith"];

    /// <summary>Words of the employees' notes: each its own stem under the English analyzer, none a stop word, no two with one stem.</summary>
    public static readonly string[] NoteWords =
    [
        "fluent", "french", "german", "italian", "spanish", "sales", "marketing", "degree", "university", "psychology", "chemistry",
        "toastmasters", "graduated", "college", "boston", "london", "seattle", "member", "trade", "coffee", "tea", "export", "budget",
        "quarterly", "technical", "travel",
    ];

    public List<Category> Categories { get; } = [];

    public List<Product> Products { get; } = [];

    public List<Company> Companies { get; } = [];

    public List<Employee> Employees { get; } = [];

    public List<Order> Orders { get; } = [];

    public static Northwind Generate(int seed)
    {
        var random = new Random(seed);
        var data = new Northwind();
        for (var i = 0; i < CategoryNames.Length; i++)
            data.Categories.Add(new Category($"categories/{i + 1}-A", CategoryNames[i], $"{CategoryNames[i]} of every kind"));

        // Distinct prices: a shuffled run of multiples of 1/4.
        var prices = Enumerable.Range(0, ProductNames.Length).Select(i => 2.5 + i * 1.75).OrderBy(_ => random.Next()).ToArray();
        for (var i = 0; i < ProductNames.Length; i++)
        {
            data.Products.Add(new Product($"products/{i + 1}-A", ProductNames[i], $"suppliers/{1 + random.Next(10)}-A", $"categories/{1 + random.Next(CategoryNames.Length)}-A",
                $"{1 + random.Next(24)} boxes x {10 + random.Next(3) * 10} bags", prices[i], random.Next(0, 120), random.Next(0, 4) * 10, random.Next(5) == 0, random.Next(0, 4) * 5));
        }

        for (var i = 0; i < CompanyNames.Length; i++)
        {
            var city = Cities[i % Cities.Length];
            // A small offset per company keeps distances distinct (no ties when ordered by distance), far below any edge.
            var location = new Location(Math.Round(city.Latitude + (i * 0.0037), 6), Math.Round(city.Longitude + (i * 0.0041), 6));
            var region = i % 3 == 0 ? null : "R" + (i % 5);
            data.Companies.Add(new Company($"companies/{i + 1}-A", CompanyNames[i], CompanyNames[i][..3].ToUpperInvariant() + (i + 1).ToString(CultureInfo.InvariantCulture),
                new Contact(FirstNames[i % FirstNames.Length] + " " + LastNames[(i * 7) % LastNames.Length], Titles[i % Titles.Length]),
                new Address($"{10 + i} Main Street", city.City, region, $"{10000 + i * 37}", city.Country, location), $"({100 + i}) 555-{1000 + i}"));
        }

        for (var i = 0; i < 12; i++)
        {
            var city = Cities[(i * 2) % Cities.Length];
            var words = Enumerable.Range(0, 8 + random.Next(8)).Select(_ => NoteWords[random.Next(NoteWords.Length)]).ToList();
            // A few fixed phrases for proximity: in order, one word apart, and reversed.
            if (i % 4 == 0)
                words.InsertRange(random.Next(words.Count), ["fluent", "french"]);
            else if (i % 4 == 1)
                words.InsertRange(random.Next(words.Count), ["fluent", "technical", "french"]);
            else if (i % 4 == 2)
                words.InsertRange(random.Next(words.Count), ["french", "fluent"]);
            data.Employees.Add(new Employee($"employees/{i + 1}-A", FirstNames[i], LastNames[i], Titles[i % Titles.Length],
                new Address($"{i + 1} Station Road", city.City, null, $"{20000 + i}", city.Country, new Location(city.Latitude, city.Longitude)),
                new DateTime(1990 + i, 1 + i % 12, 1 + i, 0, 0, 0, DateTimeKind.Utc).ToString("yyyy-MM-ddTHH:mm:ss.fffffffZ", CultureInfo.InvariantCulture),
                string.Join(' ', words.Select((w, k) => k == 0 ? char.ToUpperInvariant(w[0]) + w[1..] : w)), i == 1 ? null : "employees/2-A"));
        }

        var freights = Enumerable.Range(0, 160).Select(i => 0.25 + i * 0.75).OrderBy(_ => random.Next()).ToArray();
        for (var i = 0; i < freights.Length; i++)
        {
            var company = data.Companies[random.Next(data.Companies.Count)];
            var lines = new List<OrderLine>();
            var used = new HashSet<int>();
            var count = 1 + random.Next(4);
            while (lines.Count < count)
            {
                // Products 1 and 2 are popular, so intersections of them have answers.
                var p = random.Next(4) == 0 ? random.Next(2) : random.Next(data.Products.Count);
                if (!used.Add(p))
                    continue;
                var product = data.Products[p];
                lines.Add(new OrderLine(product.Id, product.Name, product.PricePerUnit, 1 + random.Next(30), random.Next(4) * 0.05));
            }
            var ordered = new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddDays(i * 3);
            var shipTo = Cities[random.Next(Cities.Length)];
            data.Orders.Add(new Order($"orders/{i + 1}-A", company.Id, $"employees/{1 + random.Next(data.Employees.Count)}-A",
                Iso(ordered), Iso(ordered.AddDays(14)), random.Next(6) == 0 ? null : Iso(ordered.AddDays(2 + random.Next(9))),
                new Address($"{i} Harbour Lane", shipTo.City, null, "00000", shipTo.Country, new Location(shipTo.Latitude, shipTo.Longitude)),
                $"shippers/{1 + random.Next(3)}-A", freights[i], lines));
        }
        return data;
    }

    private static string Iso(DateTime time) => time.ToString("yyyy-MM-ddTHH:mm:ss.fffffffZ", CultureInfo.InvariantCulture);

    private static readonly JsonSerializerOptions WriteOptions = new() { DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull };

    /// <summary>Every document as (id, JSON with its collection in @metadata).</summary>
    public IEnumerable<(string Id, string Json)> Documents()
    {
        foreach (var c in Categories)
            yield return (c.Id, Serialize(c, "Categories"));
        foreach (var p in Products)
            yield return (p.Id, Serialize(p, "Products"));
        foreach (var c in Companies)
            yield return (c.Id, Serialize(c, "Companies"));
        foreach (var e in Employees)
            yield return (e.Id, Serialize(e, "Employees"));
        foreach (var o in Orders)
            yield return (o.Id, Serialize(o, "Orders"));
    }

    private static string Serialize<T>(T document, string collection)
    {
        var node = JsonSerializer.SerializeToNode(document, WriteOptions)!.AsObject();
        node.Remove("Id");
        node["@metadata"] = new System.Text.Json.Nodes.JsonObject { ["@collection"] = collection };
        return node.ToJsonString();
    }
}

public sealed record Category(string Id, string Name, string Description);

public sealed record Product(string Id, string Name, string Supplier, string Category, string QuantityPerUnit, double PricePerUnit, int UnitsInStock, int UnitsOnOrder, bool Discontinued, int ReorderLevel);

public sealed record Location(double Latitude, double Longitude);

public sealed record Address(string Line1, string City, string? Region, string PostalCode, string Country, Location Location);

public sealed record Contact(string Name, string Title);

public sealed record Company(string Id, string Name, string ExternalId, Contact Contact, Address Address, string Phone);

public sealed record Employee(string Id, string FirstName, string LastName, string Title, Address Address, string HiredAt, string Notes, string? ReportsTo);

public sealed record OrderLine(string Product, string ProductName, double PricePerUnit, int Quantity, double Discount);

public sealed record Order(string Id, string Company, string Employee, string OrderedAt, string RequireAt, string? ShippedAt, Address ShipTo, string ShipVia, double Freight, List<OrderLine> Lines);
