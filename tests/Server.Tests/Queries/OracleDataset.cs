using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// A seeded, deterministic set of Orders for the SQLite oracle: nested objects (ShipTo, ShipTo.Geo),
/// arrays of objects (Lines) and of scalars (Tags), fields that are sometimes an array and sometimes
/// not (Code), explicit nulls, missing fields, empty arrays and strings, integers and fractions,
/// mixed types in one field (Rating, Freight, ShipTo.Zip) and non-ASCII text in several scripts.
/// The same seed always gives the same documents in the same order.
/// </summary>
public sealed class OracleDataset
{
    /// <summary>Paths whose values queries compare, as RQL writes them.</summary>
    public static readonly string[] Fields =
    [
        "Company", "Employee", "OrderedAt", "Status", "Paid", "Priority", "Freight", "Total", "Discount",
        "ShipTo.City", "ShipTo.Country", "ShipTo.Zip", "ShipTo.Geo.Lat", "Lines[].Product", "Lines[].Quantity",
        "Lines[].Price", "Tags", "Note", "Rating", "Code",
    ];

    private static readonly string[] Employees =
    [
        "Anna", "anna", "Émile", "Zoë", "Łukasz", "ÅSA", "Øyvind", "李雷", "Ωmega", "straße", "İlker", "Ilker", "ılgaz",
        "José", "Nguyễn", "Σοφία", "Дмитрий", "O'Brien", "𐐀𐐨dam", "Bob",
    ];

    private static readonly string[] Statuses = ["Pending", "pending", "Shipped", "SHIPPED", "Delivered", "Cancelled", "Returned", ""];

    private static readonly string[] Cities =
    [
        "Zürich", "São Paulo", "München", "Kraków", "東京", "İzmir", "Århus", "Paris", "paris", "PARIS", "London", "Reykjavík",
        "Québec", "O'Fallon", "Ålesund", "Αθήνα", "Москва", "New York", "new york", "Łódź",
    ];

    private static readonly string[] Countries = ["France", "Germany", "Switzerland", "Brazil", "Japan", "Türkiye", "Denmark", "USA", "usa", "Norway", "Greece", "Россия"];

    private static readonly string[] TextZips = ["SW1A 1AA", "75001", "8001", "k1a 0b1", "00100", "EC1A", "ÅL-6004"];

    private static readonly string[] TagValues = ["urgent", "Urgent", "gift", "fragile", "FRAGILE", "bulk", "été", "日本", "express", "🚀 fast", ""];

    private static readonly string[] Notes =
    [
        "Leave at the door", "leave AT the door", "Ring twice", "Fragile — handle with care", "Lieferung an die Rückseite",
        "配達前に電話してください", "O'Brien's order", "ça va", "Çok acil", "", "🚀 rocket mail", "Zzz last", "aaa first", "123 numeric start",
    ];

    private static readonly string[] RatingTexts = ["good", "Bad", "n/a", "5", "10", "excellent"];

    // Non-ASCII text is written as UTF-8, not \u escapes, so both engines read the bytes a user would send.
    private static readonly JsonWriterOptions WriterOptions = new() { Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private OracleDataset(int seed, List<OracleDocument> documents, Dictionary<string, List<object?>> samples)
    {
        Seed = seed;
        Documents = documents;
        Samples = samples;
    }

    public int Seed { get; }

    /// <summary>The documents in load (etag) order.</summary>
    public IReadOnlyList<OracleDocument> Documents { get; }

    /// <summary>Some values seen at each path in <see cref="Fields"/> (strings, longs, doubles, bools, nulls), for query literals.</summary>
    public IReadOnlyDictionary<string, List<object?>> Samples { get; }

    public static OracleDataset Generate(int seed, int count)
    {
        var random = new Random(seed);
        var samples = new Dictionary<string, List<object?>>(StringComparer.Ordinal);
        foreach (string field in Fields)
            samples[field] = [];
        var documents = new List<OracleDocument>(count);
        var buffer = new ArrayBufferWriter<byte>(2048);
        for (int i = 0; i < count; i++)
        {
            buffer.Clear();
            // Every 11th document contributes its values to the literal pool.
            var sink = i % 11 == 0 ? samples : null;
            using (var writer = new Utf8JsonWriter(buffer, WriterOptions))
                WriteOrder(writer, random, sink);
            documents.Add(new OracleDocument($"orders/{i + 1}", Encoding.UTF8.GetString(buffer.WrittenSpan)));
        }
        return new OracleDataset(seed, documents, samples);
    }

    private static void WriteOrder(Utf8JsonWriter w, Random r, Dictionary<string, List<object?>>? sink)
    {
        w.WriteStartObject();

        // Company: mostly a reference, sometimes with another case, sometimes null or missing.
        double p = r.NextDouble();
        if (p < 0.02)
            Value(w, "Company", null, sink, "Company");
        else if (p >= 0.05)
            Value(w, "Company", (r.NextDouble() < 0.1 ? "Companies/" : "companies/") + r.Next(1, 301).ToString(CultureInfo.InvariantCulture), sink, "Company");

        if (r.NextDouble() >= 0.03)
            Value(w, "Employee", Employees[r.Next(Employees.Length)], sink, "Employee");

        if (r.NextDouble() >= 0.02)
        {
            var ordered = new DateTime(2020, 1, 1).AddMinutes(r.Next(0, 6 * 365 * 24 * 60));
            Value(w, "OrderedAt", ordered.ToString("yyyy-MM-dd'T'HH:mm:ss", CultureInfo.InvariantCulture), sink, "OrderedAt");
        }

        Value(w, "Status", r.NextDouble() < 0.02 ? null : Statuses[r.Next(Statuses.Length)], sink, "Status");

        p = r.NextDouble();
        if (p < 0.45)
            Value(w, "Paid", true, sink, "Paid");
        else if (p < 0.88)
            Value(w, "Paid", false, sink, "Paid");
        else if (p < 0.93)
            Value(w, "Paid", null, sink, "Paid");
        else if (p < 0.95)
            Value(w, "Paid", "True", sink, "Paid");

        p = r.NextDouble();
        if (p < 0.87)
            Value(w, "Priority", (long)r.Next(1, 6), sink, "Priority");
        else if (p < 0.90)
            Value(w, "Priority", "high", sink, "Priority");

        p = r.NextDouble();
        if (p < 0.70)
            Value(w, "Freight", Math.Round(r.NextDouble() * 500, 2), sink, "Freight");
        else if (p < 0.85)
            Value(w, "Freight", (long)r.Next(0, 501), sink, "Freight");
        else if (p < 0.90)
            Value(w, "Freight", r.Next(0, 100).ToString(CultureInfo.InvariantCulture) + ".50", sink, "Freight");
        else if (p < 0.95)
            Value(w, "Freight", null, sink, "Freight");

        if (r.NextDouble() >= 0.05)
            Value(w, "Total", (long)r.Next(-100, 100_001), sink, "Total");

        p = r.NextDouble();
        if (p < 0.5)
            Value(w, "Discount", Math.Round(r.Next(5) * 0.05, 2), sink, "Discount");
        else if (p < 0.7)
            Value(w, "Discount", null, sink, "Discount");

        WriteShipTo(w, r, sink);
        WriteLines(w, r, sink);
        WriteTags(w, r, sink);

        p = r.NextDouble();
        if (p >= 0.3)
            Value(w, "Note", Notes[r.Next(Notes.Length)], sink, "Note");

        p = r.NextDouble();
        if (p < 0.40)
            Value(w, "Rating", (long)r.Next(1, 6), sink, "Rating");
        else if (p < 0.60)
            Value(w, "Rating", r.Next(0, 5) + 0.5, sink, "Rating");
        else if (p < 0.75)
            Value(w, "Rating", RatingTexts[r.Next(RatingTexts.Length)], sink, "Rating");
        else if (p < 0.85)
            Value(w, "Rating", r.NextDouble() < 0.5, sink, "Rating");
        else if (p < 0.90)
            Value(w, "Rating", null, sink, "Rating");

        p = r.NextDouble();
        if (p < 0.5)
        {
            Value(w, "Code", Code(r), sink, "Code");
        }
        else if (p < 0.75)
        {
            w.WriteStartArray("Code");
            int n = r.Next(0, 4);
            for (int k = 0; k < n; k++)
                Item(w, Code(r), sink, "Code");
            w.WriteEndArray();
        }

        w.WriteEndObject();
    }

    private static string Code(Random r) => (char)('A' + r.Next(0, 6)) + (r.NextDouble() < 0.3 ? "-" : "") + r.Next(0, 100).ToString(CultureInfo.InvariantCulture);

    private static void WriteShipTo(Utf8JsonWriter w, Random r, Dictionary<string, List<object?>>? sink)
    {
        double p = r.NextDouble();
        if (p < 0.05)
            return;
        if (p < 0.08)
        {
            w.WriteNull("ShipTo");
            return;
        }
        w.WriteStartObject("ShipTo");
        if (r.NextDouble() >= 0.05)
            Value(w, "City", Cities[r.Next(Cities.Length)], sink, "ShipTo.City");
        if (r.NextDouble() >= 0.03)
            Value(w, "Country", r.NextDouble() < 0.02 ? null : Countries[r.Next(Countries.Length)], sink, "ShipTo.Country");
        p = r.NextDouble();
        if (p < 0.4)
            Value(w, "Zip", (long)r.Next(1000, 100_000), sink, "ShipTo.Zip");
        else if (p < 0.8)
            Value(w, "Zip", TextZips[r.Next(TextZips.Length)], sink, "ShipTo.Zip");
        else if (p < 0.9)
            Value(w, "Zip", null, sink, "ShipTo.Zip");
        if (r.NextDouble() < 0.5)
        {
            w.WriteStartObject("Geo");
            Value(w, "Lat", Math.Round(r.NextDouble() * 180 - 90, 4), sink, "ShipTo.Geo.Lat");
            w.WriteNumber("Lng", Math.Round(r.NextDouble() * 360 - 180, 4));
            w.WriteEndObject();
        }
        w.WriteEndObject();
    }

    private static void WriteLines(Utf8JsonWriter w, Random r, Dictionary<string, List<object?>>? sink)
    {
        double p = r.NextDouble();
        if (p < 0.05)
            return;
        w.WriteStartArray("Lines");
        int count = p < 0.08 ? 0 : r.Next(1, 6);
        for (int k = 0; k < count; k++)
        {
            w.WriteStartObject();
            Value(w, "Product", (r.NextDouble() < 0.05 ? "Products/" : "products/") + r.Next(1, 81).ToString(CultureInfo.InvariantCulture), sink, "Lines[].Product");
            p = r.NextDouble();
            if (p < 0.93)
                Value(w, "Quantity", (long)r.Next(1, 51), sink, "Lines[].Quantity");
            else if (p < 0.95)
                Value(w, "Quantity", null, sink, "Lines[].Quantity");
            Value(w, "Price", r.NextDouble() < 0.05 ? (long)r.Next(1, 100) : Math.Round(r.NextDouble() * 100, 2), sink, "Lines[].Price");
            w.WriteEndObject();
        }
        w.WriteEndArray();
    }

    private static void WriteTags(Utf8JsonWriter w, Random r, Dictionary<string, List<object?>>? sink)
    {
        double p = r.NextDouble();
        if (p < 0.10)
            return;
        if (p < 0.13)
        {
            Value(w, "Tags", null, sink, "Tags");
            return;
        }
        if (p < 0.18)
        {
            Value(w, "Tags", TagValues[r.Next(TagValues.Length)], sink, "Tags");
            return;
        }
        w.WriteStartArray("Tags");
        int count = p < 0.23 ? 0 : r.Next(1, 5);
        for (int k = 0; k < count; k++)
        {
            double q = r.NextDouble();
            if (q < 0.03)
                Item(w, null, sink, "Tags");
            else if (q < 0.05)
                Item(w, 7L, sink, "Tags");
            else
                Item(w, TagValues[r.Next(TagValues.Length)], sink, "Tags");
        }
        w.WriteEndArray();
    }

    private static void Value(Utf8JsonWriter w, string name, object? value, Dictionary<string, List<object?>>? sink, string path)
    {
        w.WritePropertyName(name);
        Item(w, value, sink, path);
    }

    private static void Item(Utf8JsonWriter w, object? value, Dictionary<string, List<object?>>? sink, string path)
    {
        switch (value)
        {
            case null:
                w.WriteNullValue();
                break;
            case string s:
                w.WriteStringValue(s);
                break;
            case long l:
                w.WriteNumberValue(l);
                break;
            case double d:
                w.WriteNumberValue(d);
                break;
            case bool b:
                w.WriteBooleanValue(b);
                break;
            default:
                throw new ArgumentException($"Unexpected value {value}", nameof(value));
        }
        sink?[path].Add(value);
    }
}

/// <summary>One generated document: its id and its JSON (without @metadata).</summary>
public sealed record OracleDocument(string Id, string Json);
