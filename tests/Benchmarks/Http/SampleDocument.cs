using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.Http;

/// <summary>The 1 KB documents of http-load: a customer record, padded with note text to exactly <see cref="Size"/> bytes.</summary>
public static class SampleDocument
{
    /// <summary>Bytes per document.</summary>
    public const int Size = 1024;

    private static readonly string[] s_cities = ["Lyon", "Porto", "Gdansk", "Utrecht", "Bergen", "Tartu", "Brno", "Cork"];

    /// <summary>Document <paramref name="n"/> as UTF-8 JSON.</summary>
    public static byte[] Create(int n)
    {
        var text = new StringBuilder(Size);
        text.Append(CultureInfo.InvariantCulture, $"{{\"Name\":\"Customer {n:D7}\",\"Company\":\"companies/{n % 997}\",\"Email\":\"customer{n}@example.com\",");
        text.Append(CultureInfo.InvariantCulture, $"\"Address\":{{\"Street\":\"{n % 400} Harbour Road\",\"City\":\"{s_cities[n % s_cities.Length]}\",\"Country\":\"EU\"}},");
        text.Append(CultureInfo.InvariantCulture, $"\"Tags\":[\"tier-{n % 5}\",\"region-{n % 11}\"],\"Total\":{n % 10_000}.{n % 100:D2},\"Notes\":\"");
        const string filler = "Prefers delivery before noon; invoices quarterly; contact by email first. ";
        int room = Size - text.Length - 2;
        for (int i = 0; i < room; i++)
            text.Append(filler[i % filler.Length]);
        text.Append("\"}");
        byte[] json = Encoding.UTF8.GetBytes(text.ToString());
        return json.Length == Size ? json : throw new InvalidOperationException($"Document {n} came out {json.Length} bytes.");
    }
}
