using System.Buffers;
using System.Diagnostics;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Benchmarks.BulkLoad;
using Folio.Benchmarks.Search;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// The document sets <see cref="StorageCostCommand"/> measures, each as JSON records with their collection in
/// <c>@metadata</c>: <c>orders</c> (generated shop orders), <c>search</c> (the search benchmark's records, the same
/// file <c>search-load</c> indexes) and <c>debian</c> (a real public data set: every package this machine's apt lists
/// describe, one document per stanza with Debian's own field names, such as <c>Installed-Size</c>,
/// <c>Pre-Depends</c>, <c>Description-md5</c> or <c>X-Cargo-Built-Using</c>).
/// </summary>
internal static class StorageCostSets
{
    public const string AptLists = "/var/lib/apt/lists";

    private static readonly JsonWriterOptions Relaxed = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>The records of <paramref name="set"/>, and a line that says what they are.</summary>
    public static (byte[][] Records, string Description) Load(string set, int docs, int bytes) => set switch
    {
        "orders" => (RecordGenerator.GenerateMany(docs, bytes), $"generated orders (`--bytes {bytes}`)"),
        "search" => (SearchRecords(docs), "the search benchmark's records (category, brand, 20–40 words of text, timestamp, price)"),
        "debian" => DebianPackages(),
        _ => throw new ArgumentException($"Unknown set '{set}': orders, search or debian."),
    };

    private static byte[][] SearchRecords(int docs)
    {
        SearchBenchData.EnsureWritten(SearchBenchData.DefaultDirectory, docs, 1_000);
        BenchRecord[] source = SearchBenchData.ReadRecords(SearchBenchData.RecordsPath(SearchBenchData.DefaultDirectory, docs));
        var records = new byte[source.Length][];
        var buffer = new ArrayBufferWriter<byte>(512);
        for (int i = 0; i < source.Length; i++)
        {
            buffer.ResetWrittenCount();
            using (var writer = new Utf8JsonWriter(buffer, Relaxed))
            {
                BenchRecord r = source[i];
                writer.WriteStartObject();
                writer.WriteString("Category", r.Category);
                writer.WriteString("Brand", r.Brand);
                writer.WriteString("Text", r.Text);
                writer.WriteNumber("Timestamp", r.Timestamp);
                writer.WriteNumber("Price", r.Price);
                WriteCollection(writer, "Records");
                writer.WriteEndObject();
            }

            records[i] = buffer.WrittenSpan.ToArray();
        }

        return records;
    }

    /// <summary>
    /// Each stanza of every <c>*_Packages*</c> file under <see cref="AptLists"/> (read through apt's own
    /// <c>apt-helper cat-file</c>, which undoes whichever compression apt chose), its fields as strings in their
    /// order, a continued field's lines joined with newlines as Debian policy describes them.
    /// </summary>
    private static (byte[][], string) DebianPackages()
    {
        string[] lists = Directory.Exists(AptLists) ? Directory.GetFiles(AptLists, "*_Packages*") : [];
        if (lists.Length == 0)
            throw new InvalidOperationException($"No package lists under {AptLists}: run `apt-get update` first.");
        Array.Sort(lists, StringComparer.Ordinal);
        var records = new List<byte[]>(70_000);
        var buffer = new ArrayBufferWriter<byte>(4096);
        var fields = new List<(string Name, StringBuilder Value)>();
        foreach (string list in lists)
        {
            using Process cat = Process.Start(new ProcessStartInfo("/usr/lib/apt/apt-helper", ["cat-file", list]) { RedirectStandardOutput = true, UseShellExecute = false, StandardOutputEncoding = Encoding.UTF8 })
                ?? throw new InvalidOperationException("Could not run apt-helper.");
            string? line;
            while ((line = cat.StandardOutput.ReadLine()) is not null)
            {
                if (line.Length == 0)
                {
                    Flush(fields, records, buffer);
                }
                else if (line[0] is ' ' or '\t')
                {
                    if (fields.Count > 0)
                        fields[^1].Value.Append('\n').Append(line == " ." ? "" : line.AsSpan(1));
                }
                else
                {
                    int colon = line.IndexOf(':', StringComparison.Ordinal);
                    if (colon > 0)
                        fields.Add((line[..colon], new StringBuilder(line.AsSpan(colon + 1).Trim().ToString())));
                }
            }

            Flush(fields, records, buffer);
            cat.WaitForExit();
            if (cat.ExitCode != 0)
                throw new InvalidOperationException($"apt-helper cat-file {list} exited with {cat.ExitCode}.");
        }

        return ([.. records], $"Debian's package lists on this machine ({string.Join(", ", Array.ConvertAll(lists, Path.GetFileName))}), one document per package stanza");
    }

    private static void Flush(List<(string Name, StringBuilder Value)> fields, List<byte[]> records, ArrayBufferWriter<byte> buffer)
    {
        if (fields.Count == 0)
            return;
        buffer.ResetWrittenCount();
        using (var writer = new Utf8JsonWriter(buffer, Relaxed))
        {
            writer.WriteStartObject();
            foreach ((string name, StringBuilder value) in fields)
                writer.WriteString(name, value.ToString());
            WriteCollection(writer, "Packages");
            writer.WriteEndObject();
        }

        records.Add(buffer.WrittenSpan.ToArray());
        fields.Clear();
    }

    private static void WriteCollection(Utf8JsonWriter writer, string collection)
    {
        writer.WriteStartObject("@metadata");
        writer.WriteString("@collection", collection);
        writer.WriteEndObject();
    }
}
