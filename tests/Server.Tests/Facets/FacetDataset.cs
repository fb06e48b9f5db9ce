using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Queries;

namespace Folio.Server.Tests.Facets;

/// <summary>
/// Seeded products for the facet oracle: property names that need quotes in RQL (<c>Major Genre</c>, <c>a.b</c>,
/// <c>Unit Cost</c>), one value spelled several ways (<c>Acme</c>, <c>ACME</c>, <c>acme</c>), arrays with repeats,
/// nulls and objects in them, explicit nulls, missing fields, empty arrays, numbers next to text in one field, and
/// non-ASCII text. Every number is a multiple of 1/8 below a few thousand, so sums are exact in any order and Folio's
/// and SQLite's sums must be equal to the bit.
/// </summary>
public static class FacetDataset
{
    /// <summary>A field: its JSON property, how RQL writes it, and whether conditions on it compare numbers.</summary>
    public sealed record Field(string Property, string Rql, bool Numeric)
    {
        /// <summary>The SQLite JSON path of the property.</summary>
        public string JsonPath => "$.\"" + Property + "\"";
    }

    public static readonly Field Brand = new("Brand", "Brand", false);
    public static readonly Field Genre = new("Major Genre", "'Major Genre'", false);
    public static readonly Field Dotted = new("a.b", "'a.b'", false);
    public static readonly Field Tags = new("Tags", "Tags", false);
    public static readonly Field Price = new("Price", "Price", true);
    public static readonly Field UnitCost = new("Unit Cost", "'Unit Cost'", true);
    public static readonly Field Ratings = new("Ratings", "Ratings", true);
    public static readonly Field Stock = new("Stock", "Stock", true);

    public static readonly Field[] All = [Brand, Genre, Dotted, Tags, Price, UnitCost, Ratings, Stock];

    public static readonly string[] Brands =
    [
        "Acme", "ACME", "acme", "Zeta", "zeta", "Nova", "Ørsted", "ØRSTED", "Straße", "STRASSE", "Café", "CAFÉ", "東京",
        "O'Brien", "o'brien", " lead", "", "null", "Zürich AG", "ZÜRICH AG",
    ];

    public static readonly string[] Genres = ["Drama", "DRAMA", "drama", "Comedy", "comedy", "Sci-Fi", "SCI-FI", "Thriller", "Film Noir", "film noir"];

    public static readonly string[] TagValues = ["red", "Red", "RED", "blue", "Blue", "green", "été", "Été", "🚀 fast", "x"];

    private static readonly JsonWriterOptions WriterOptions = new() { Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static List<OracleDocument> Generate(int seed, int count, int firstId = 1)
    {
        var random = new Random(seed);
        var documents = new List<OracleDocument>(count);
        var buffer = new ArrayBufferWriter<byte>(1024);
        for (var i = 0; i < count; i++)
        {
            buffer.Clear();
            using (var writer = new Utf8JsonWriter(buffer, WriterOptions))
                WriteProduct(writer, random);
            documents.Add(new OracleDocument($"products/{firstId + i}", Encoding.UTF8.GetString(buffer.WrittenSpan)));
        }
        return documents;
    }

    private static void WriteProduct(Utf8JsonWriter w, Random r)
    {
        w.WriteStartObject();
        var p = r.NextDouble();
        if (p < 0.03)
        {
            w.WriteNull("Brand");
        }
        else if (p < 0.05)
        {
            w.WriteNumber("Brand", 7);
        }
        else if (p < 0.06)
        {
            w.WriteBoolean("Brand", true);
        }
        else if (p < 0.09)
        {
            w.WriteStartArray("Brand");
            w.WriteStringValue(Pick(r, Brands));
            w.WriteStringValue(Pick(r, Brands));
            w.WriteEndArray();
        }
        else if (p < 0.97)
        {
            w.WriteString("Brand", Zipf(r, Brands));
        }

        p = r.NextDouble();
        if (p < 0.05)
            w.WriteNull("Major Genre");
        else if (p < 0.08)
            WriteObject(w, "Major Genre");
        else if (p < 0.95)
            w.WriteString("Major Genre", Zipf(r, Genres));

        p = r.NextDouble();
        if (p < 0.5)
            w.WriteNumber("a.b", r.Next(1, 7));
        else if (p < 0.7)
            w.WriteString("a.b", r.Next(1, 4).ToString(CultureInfo.InvariantCulture));
        else if (p < 0.85)
            w.WriteString("a.b", r.Next(2) == 0 ? "X" : "x");

        WriteTags(w, r);

        p = r.NextDouble();
        if (p < 0.6)
            w.WriteNumber("Price", r.Next(0, 4000) * 0.25);
        else if (p < 0.8)
            w.WriteNumber("Price", r.Next(0, 1001));
        else if (p < 0.85)
            w.WriteString("Price", "n/a");
        else if (p < 0.9)
            w.WriteNull("Price");

        if (r.NextDouble() < 0.9)
            w.WriteNumber("Unit Cost", r.Next(0, 800) * 0.125);

        p = r.NextDouble();
        if (p < 0.8)
        {
            w.WriteStartArray("Ratings");
            var n = p < 0.05 ? 0 : r.Next(1, 5);
            for (var k = 0; k < n; k++)
            {
                var q = r.NextDouble();
                if (q < 0.05)
                    w.WriteNullValue();
                else if (q < 0.08)
                    w.WriteStringValue("good");
                else
                    w.WriteNumberValue(r.Next(2, 11) * 0.5);
            }
            w.WriteEndArray();
        }

        p = r.NextDouble();
        if (p < 0.02)
            w.WriteNull("Stock");
        else if (p < 0.9)
            w.WriteNumber("Stock", r.Next(0, 51));

        w.WriteEndObject();
    }

    private static void WriteTags(Utf8JsonWriter w, Random r)
    {
        var p = r.NextDouble();
        if (p < 0.10)
            return;
        if (p < 0.13)
        {
            w.WriteNull("Tags");
            return;
        }
        if (p < 0.18)
        {
            w.WriteString("Tags", Pick(r, TagValues));
            return;
        }
        w.WriteStartArray("Tags");
        var count = p < 0.23 ? 0 : r.Next(1, 5);
        for (var k = 0; k < count; k++)
        {
            var q = r.NextDouble();
            if (q < 0.03)
                w.WriteNullValue();
            else if (q < 0.06)
                w.WriteNumberValue(7);
            else if (q < 0.08)
                WriteObject(w, null);
            else
                w.WriteStringValue(Zipf(r, TagValues));
        }
        w.WriteEndArray();
    }

    private static void WriteObject(Utf8JsonWriter w, string? name)
    {
        if (name is null)
            w.WriteStartObject();
        else
            w.WriteStartObject(name);
        w.WriteNumber("x", 1);
        w.WriteEndObject();
    }

    private static string Pick(Random r, string[] values) => values[r.Next(values.Length)];

    /// <summary>Skewed towards the first values, so some values are common and pages cut through a long tail.</summary>
    private static string Zipf(Random r, string[] values) => values[(int)(values.Length * Math.Pow(r.NextDouble(), 2))];
}
