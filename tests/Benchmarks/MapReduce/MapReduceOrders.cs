using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.MapReduce;

/// <summary>One order line: a product, a quantity and a unit price (in cents, so every store reads the same double).</summary>
public readonly record struct OrderLine(int Product, int Quantity, int PriceCents)
{
    /// <summary>The unit price as the JSON and SQLite carry it: the double nearest to cents / 100.</summary>
    public double PricePerUnit => PriceCents / 100.0;
}

/// <summary>
/// The orders of mapreduce-load: <c>{"Company":"companies/K","Freight":d,"Lines":[{"Product":"products/P","Quantity":q,"PricePerUnit":p}…]}</c>,
/// every value a SplitMix64 hash of the order number, so Folio, PouchDB Server and SQLite are loaded with
/// identical data without holding it. 1,000 companies, 5,000 products, 1 to 7 lines (4 on average).
/// Freight and prices are whole cents: cents / 100.0 is the double that parsing the JSON text gives, so the
/// sums every store makes start from the same numbers.
/// </summary>
public static class MapReduceOrders
{
    /// <summary>Distinct companies: 1,000 groups for the by-company index.</summary>
    public const int Companies = 1000;

    /// <summary>Distinct products: the by-product index fans out over the lines into these groups.</summary>
    public const int Products = 5000;

    /// <summary>At most this many lines per order (at least one); 4 on average.</summary>
    public const int MaxLines = 7;

    /// <summary>The id of order <paramref name="n"/>.</summary>
    public static string Id(int n) => "orders/" + n.ToString(CultureInfo.InvariantCulture);

    /// <summary>The name of company <paramref name="k"/>.</summary>
    public static string CompanyName(int k) => "companies/" + k.ToString(CultureInfo.InvariantCulture);

    /// <summary>The name of product <paramref name="p"/>.</summary>
    public static string ProductName(int p) => "products/" + p.ToString(CultureInfo.InvariantCulture);

    /// <summary>Order <paramref name="n"/>'s company, 0 to 999.</summary>
    public static int Company(int n) => (int)(Hash(n, 1) % Companies);

    /// <summary>Order <paramref name="n"/>'s freight in cents, 0 to 99,999 (0.00 to 999.99).</summary>
    public static int FreightCents(int n) => (int)(Hash(n, 2) % 100_000);

    /// <summary>How many lines order <paramref name="n"/> has, 1 to 7.</summary>
    public static int LineCount(int n) => 1 + (int)(Hash(n, 3) % MaxLines);

    /// <summary>Line <paramref name="i"/> of order <paramref name="n"/>: quantity 1 to 50, unit price 0.00 to 99.99.</summary>
    public static OrderLine Line(int n, int i) =>
        new((int)(Hash(n, 10 + i) % Products), 1 + (int)(Hash(n, 20 + i) % 50), (int)(Hash(n, 30 + i) % 10_000));

    /// <summary>The sum of order <paramref name="n"/>'s line quantities.</summary>
    public static long QuantityOf(int n)
    {
        long total = 0;
        int lines = LineCount(n);
        for (int i = 0; i < lines; i++)
            total += Line(n, i).Quantity;
        return total;
    }

    /// <summary>Order <paramref name="n"/> as JSON, of its own company.</summary>
    public static byte[] Json(int n) => Json(n, CompanyName(Company(n)), FreightCents(n), 0);

    /// <summary>
    /// Order <paramref name="n"/> as JSON with <paramref name="company"/> and <paramref name="freightCents"/>, and
    /// <paramref name="extraQuantity"/> added to its first line's quantity (what the incremental updates change).
    /// </summary>
    public static byte[] Json(int n, string company, int freightCents, int extraQuantity)
    {
        var json = new StringBuilder(80 + (MaxLines * 64));
        json.Append("{\"Company\":\"").Append(company).Append("\",\"Freight\":");
        AppendCents(json, freightCents);
        json.Append(",\"Lines\":[");
        int lines = LineCount(n);
        for (int i = 0; i < lines; i++)
        {
            OrderLine line = Line(n, i);
            if (i > 0)
                json.Append(',');
            json.Append("{\"Product\":\"").Append(ProductName(line.Product)).Append("\",\"Quantity\":")
                .Append((line.Quantity + (i == 0 ? extraQuantity : 0)).ToString(CultureInfo.InvariantCulture))
                .Append(",\"PricePerUnit\":");
            AppendCents(json, line.PriceCents);
            json.Append('}');
        }

        json.Append("]}");
        return Encoding.UTF8.GetBytes(json.ToString());
    }

    /// <summary>Writes whole cents as a decimal number with two places (12345 → 123.45).</summary>
    private static void AppendCents(StringBuilder json, int cents) =>
        json.Append((cents / 100).ToString(CultureInfo.InvariantCulture)).Append('.').Append((cents % 100).ToString("D2", CultureInfo.InvariantCulture));

    // SplitMix64 of the order number and the field: well spread, and the same in every process.
    private static ulong Hash(int n, int field)
    {
        ulong z = ((ulong)(uint)n << 8 | (uint)field) + 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }
}
