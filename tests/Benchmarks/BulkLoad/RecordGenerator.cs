using System.Buffers;
using System.Globalization;
using System.Text.Json;

namespace Folio.Benchmarks.BulkLoad;

/// <summary>
/// Order records of about 1 KB shaped like a shop's real data (company, employee, dates, an address with a
/// location, order lines, free text), generated once before any timing so every system loads the same bytes.
/// </summary>
public static class RecordGenerator
{
    private static readonly string[] Cities = ["Lyon", "Reims", "Graz", "Bern", "Sevilla", "Porto", "Leipzig", "Aarhus", "Turku", "Cork"];
    private static readonly string[] Countries = ["France", "France", "Austria", "Switzerland", "Spain", "Portugal", "Germany", "Denmark", "Finland", "Ireland"];
    private static readonly string[] Products = ["Chai", "Chang", "Aniseed Syrup", "Ikura", "Konbu", "Tofu", "Pavlova", "Tunnbröd", "Gnocchi di nonna Alice", "Camembert Pierrot"];
    private static readonly string[] Words = ["please", "deliver", "before", "noon", "the", "back", "door", "call", "ahead", "fragile", "invoice", "monthly", "customer", "asked", "for", "gift", "wrap"];

    /// <summary>The JSON of record <paramref name="index"/> (without an id), about <paramref name="targetBytes"/> long.</summary>
    public static byte[] Generate(int index, int targetBytes = 1024)
    {
        var random = new Random(index);
        var buffer = new ArrayBufferWriter<byte>(targetBytes + 256);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            var ordered = new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddMinutes(random.Next(0, 2_000_000));
            writer.WriteStartObject();
            writer.WriteString("Company", "companies/" + random.Next(1, 5000).ToString(CultureInfo.InvariantCulture));
            writer.WriteString("Employee", "employees/" + random.Next(1, 200).ToString(CultureInfo.InvariantCulture));
            writer.WriteString("OrderedAt", ordered);
            writer.WriteString("RequireAt", ordered.AddDays(14));
            writer.WriteString("ShippedAt", ordered.AddDays(random.Next(1, 10)));
            writer.WriteString("ShipVia", "shippers/" + random.Next(1, 4).ToString(CultureInfo.InvariantCulture));
            writer.WriteNumber("Freight", Math.Round(random.NextDouble() * 300, 2));
            int city = random.Next(Cities.Length);
            writer.WriteStartObject("ShipTo");
            writer.WriteString("Line1", random.Next(1, 300).ToString(CultureInfo.InvariantCulture) + " rue de la Gare");
            writer.WriteNull("Line2");
            writer.WriteString("City", Cities[city]);
            writer.WriteNull("Region");
            writer.WriteString("PostalCode", random.Next(10000, 99999).ToString(CultureInfo.InvariantCulture));
            writer.WriteString("Country", Countries[city]);
            writer.WriteStartObject("Location");
            writer.WriteNumber("Latitude", Math.Round(40 + random.NextDouble() * 20, 6));
            writer.WriteNumber("Longitude", Math.Round(-8 + random.NextDouble() * 30, 6));
            writer.WriteEndObject();
            writer.WriteEndObject();
            writer.WriteStartArray("Lines");
            int lines = random.Next(2, 5);
            for (int i = 0; i < lines; i++)
            {
                int product = random.Next(Products.Length);
                writer.WriteStartObject();
                writer.WriteString("Product", "products/" + (product + 1).ToString(CultureInfo.InvariantCulture));
                writer.WriteString("ProductName", Products[product]);
                writer.WriteNumber("PricePerUnit", Math.Round(5 + random.NextDouble() * 60, 2));
                writer.WriteNumber("Quantity", random.Next(1, 50));
                writer.WriteNumber("Discount", random.Next(0, 4) * 0.05);
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
            writer.Flush();
            // Free text fills the record to its target size, as notes and comments do in real orders.
            int room = Math.Max(0, targetBytes - (int)writer.BytesCommitted - 40);
            var notes = new System.Text.StringBuilder(room);
            while (notes.Length < room)
                notes.Append(Words[random.Next(Words.Length)]).Append(' ');
            writer.WriteString("Notes", notes.ToString(0, room));
            writer.WriteStartObject("@metadata");
            writer.WriteString("@collection", "Orders");
            writer.WriteEndObject();
            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>Generates <paramref name="count"/> records on all cores.</summary>
    public static byte[][] GenerateMany(int count, int targetBytes = 1024)
    {
        var records = new byte[count][];
        Parallel.For(0, count, i => records[i] = Generate(i, targetBytes));
        return records;
    }
}
