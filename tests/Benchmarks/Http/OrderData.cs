using System.Globalization;
using System.Text;
using Folio.Indexing.Definitions;
using Folio.Indexing.Search;

namespace Folio.Benchmarks.Http;

/// <summary>
/// The documents of query-load: orders with five indexable fields, each value a hash of the order's
/// number, so the server load and the raw-index run (another process) see identical data without sharing it.
/// </summary>
public sealed class OrderData(int count)
{
    /// <summary>The static index the benchmark creates: two exact fields, one full-text, one long, one double.</summary>
    public const string IndexName = "Orders/Bench";

    /// <summary>The index definition as Folio's REST API takes it.</summary>
    public const string IndexDefinitionJson =
        "{\"Name\":\"Orders/Bench\",\"Collections\":[\"Orders\"],\"Fields\":{" +
        "\"Customer\":{\"Path\":\"Customer\"},\"Category\":{\"Path\":\"Category\"}," +
        "\"Notes\":{\"Path\":\"Notes\",\"Search\":true}," +
        "\"Quantity\":{\"Path\":\"Quantity\",\"Type\":\"Long\"},\"Price\":{\"Path\":\"Price\",\"Type\":\"Double\"}}}";

    /// <summary>Distinct words the notes draw from; a full-text query for one matches about 8 / 2,000 of the orders.</summary>
    public const int Vocabulary = 2000;

    private const int WordsPerNote = 8;
    private const int Categories = 50;
    private static readonly string[] s_syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "te", "vo", "zi", "pu"];

    /// <summary>How many orders.</summary>
    public int Count { get; } = count;

    /// <summary>About ten orders per customer, so an equality query on Customer matches about ten.</summary>
    public int Customers => Math.Max(1, Count / 10);

    /// <summary>The id of order <paramref name="n"/>.</summary>
    public static string Id(int n) => "orders/" + n.ToString(CultureInfo.InvariantCulture);

    /// <summary>Word <paramref name="n"/> of the vocabulary: four syllables spelling its decimal digits.</summary>
    public static string Word(int n)
    {
        string digits = (n + 1000).ToString(CultureInfo.InvariantCulture);
        var word = new StringBuilder(8);
        foreach (char digit in digits)
            word.Append(s_syllables[digit - '0']);
        return word.ToString();
    }

    /// <summary>Order <paramref name="n"/>'s customer.</summary>
    public string Customer(int n) => "customers/" + (Hash(n, 1) % (ulong)Customers).ToString(CultureInfo.InvariantCulture);

    /// <summary>Order <paramref name="n"/>'s category.</summary>
    public static string Category(int n) => "category-" + (Hash(n, 2) % Categories).ToString(CultureInfo.InvariantCulture);

    /// <summary>Order <paramref name="n"/>'s quantity, 1 to 1,000.</summary>
    public static long Quantity(int n) => 1 + (long)(Hash(n, 3) % 1000);

    /// <summary>Order <paramref name="n"/>'s price in cents, 0 to 100,000, so prices are 0.00 to 1,000.00.</summary>
    public static long PriceCents(int n) => (long)(Hash(n, 4) % 100_001);

    /// <summary>Order <paramref name="n"/>'s notes: eight vocabulary words.</summary>
    public static string Notes(int n)
    {
        var notes = new StringBuilder(WordsPerNote * 9);
        for (int w = 0; w < WordsPerNote; w++)
        {
            if (w > 0)
                notes.Append(' ');
            notes.Append(Word((int)(Hash(n, 10 + w) % Vocabulary)));
        }

        return notes.ToString();
    }

    /// <summary>Order <paramref name="n"/> as JSON (about 190 bytes).</summary>
    public byte[] Json(int n)
    {
        long cents = PriceCents(n);
        string json = string.Create(CultureInfo.InvariantCulture,
            $"{{\"Customer\":\"{Customer(n)}\",\"Category\":\"{Category(n)}\",\"Notes\":\"{Notes(n)}\",\"Quantity\":{Quantity(n)},\"Price\":{cents / 100}.{cents % 100:D2},\"Status\":\"open\"}}");
        return Encoding.UTF8.GetBytes(json);
    }

    /// <summary>Order <paramref name="n"/> as the search engine entry the index definition makes of it (key: the lower-cased id).</summary>
    public IndexEntry Entry(int n)
    {
        string key = Id(n);
        return new IndexEntry(key)
            .Add(IndexDefinition.IdField, key)
            .Add("Customer", Customer(n))
            .Add("Category", Category(n))
            .Add("Notes", Notes(n))
            .Add("Quantity", Quantity(n))
            .Add("Price", PriceCents(n) / 100.0);
    }

    // SplitMix64 of the order number and the field: well spread, and the same in every process.
    private static ulong Hash(int n, int field)
    {
        ulong z = ((ulong)(uint)n << 8 | (uint)field) + 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }
}
