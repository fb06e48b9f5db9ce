using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.Search;

/// <summary>One generated record: what both engines index.</summary>
internal sealed record BenchRecord(int Id, string Category, string Brand, string Text, long Timestamp, double Price);

/// <summary>
/// Writes the records and the query sets of the search load test once, deterministically from a
/// seed, to tab-separated files that Folio and the Java Lucene program both read; the query sets
/// live in the file too so both sides run exactly the same queries.
/// <para>records: <c>id, category, brand, text, timestamp, price</c>. queries: <c>kind, arg1, arg2</c>
/// with kind <c>eq</c> (brand), <c>range</c> (inclusive timestamp bounds), <c>text</c> (two words),
/// <c>sort</c> (brand, sorted by timestamp).</para>
/// </summary>
internal static class SearchBenchData
{
    // Bump when the generator changes, so a stale data file is never reused.
    private const int Version = 1;
    private const ulong Seed = 0x5EED_F011_0000_0001UL;

    /// <summary>Where the commands that share these files keep them unless told otherwise.</summary>
    public const string DefaultDirectory = "/tmp/folio-bench";

    public const int CategoryCount = 50;
    public const int BrandCount = 5000;
    public const long FirstTimestamp = 1_600_000_000;
    public const long TimestampSpan = 365L * 86_400;

    private static readonly string[] CategoryNames =
    [
        "Books", "Electronics", "Home & Kitchen", "Clothing", "Sports & Outdoors", "Toys & Games", "Beauty",
        "Health", "Automotive", "Garden", "Tools", "Grocery", "Pet Supplies", "Office Products", "Music",
        "Movies", "Video Games", "Baby", "Jewelry", "Shoes", "Watches", "Luggage", "Furniture", "Appliances",
        "Arts & Crafts", "Industrial", "Software", "Cameras", "Phones", "Computers", "Lighting", "Bedding",
        "Bath", "Storage", "Party Supplies", "Musical Instruments", "Camping", "Fishing", "Cycling", "Fitness",
        "Handmade", "Collectibles", "Stationery", "Outdoor Power", "Smart Home", "Wine", "Coffee & Tea",
        "Snacks", "Costumes", "Travel",
    ];

    public static string RecordsPath(string directory, int records) => Path.Combine(directory, $"records-v{Version}-{records}.tsv");

    public static string QueriesPath(string directory, int records, int queries) => Path.Combine(directory, $"queries-v{Version}-{records}-{queries}.tsv");

    /// <summary>Writes both files unless they already exist (written whole under a temporary name first).</summary>
    public static void EnsureWritten(string directory, int records, int queriesPerKind)
    {
        Directory.CreateDirectory(directory);
        var recordsPath = RecordsPath(directory, records);
        var queriesPath = QueriesPath(directory, records, queriesPerKind);
        if (File.Exists(recordsPath) && File.Exists(queriesPath))
            return;
        var vocabulary = EnglishVocabulary.Load();
        var random = new SplitMix64(Seed);
        var words = new ZipfSampler(vocabulary.Count, 1.0);
        var categories = new ZipfSampler(CategoryCount, 1.0);
        var brands = new ZipfSampler(BrandCount, 1.0);
        var brandNames = BrandNames(vocabulary, random);

        var generated = new List<BenchRecord>(records);
        var text = new StringBuilder(512);
        for (var id = 0; id < records; id++)
        {
            text.Clear();
            var length = 20 + (int)random.NextBelow(21);
            for (var w = 0; w < length; w++)
            {
                var word = vocabulary[words.Next(random)];
                if (w == 0)
                {
                    text.Append(char.ToUpperInvariant(word[0])).Append(word, 1, word.Length - 1);
                }
                else
                {
                    text.Append(' ').Append(word);
                }
                if (w == length - 1)
                    text.Append('.');
                else if (random.NextBelow(10) == 0)
                    text.Append(',');
            }
            var timestamp = FirstTimestamp + (long)random.NextBelow((ulong)TimestampSpan);
            // Log-normal-ish prices in cents, as a shop's would be.
            var price = Math.Round(Math.Exp(2 + (3 * random.NextDouble())) * 100) / 100;
            generated.Add(new BenchRecord(id, CategoryNames[categories.Next(random)], brandNames[brands.Next(random)], text.ToString(), timestamp, price));
        }

        WriteAtomically(recordsPath, writer =>
        {
            foreach (var r in generated)
                writer.Write(FormattableString.Invariant($"{r.Id}\t{r.Category}\t{r.Brand}\t{r.Text}\t{r.Timestamp}\t{r.Price:R}\n"));
        });
        WriteAtomically(queriesPath, writer => WriteQueries(writer, generated, queriesPerKind, random));
    }

    /// <summary>Reads the records file into memory (so neither engine's timing includes parsing).</summary>
    public static BenchRecord[] ReadRecords(string path)
    {
        var records = new List<BenchRecord>();
        foreach (var line in File.ReadLines(path))
        {
            var f = line.Split('\t');
            records.Add(new BenchRecord(int.Parse(f[0], CultureInfo.InvariantCulture), f[1], f[2], f[3],
                long.Parse(f[4], CultureInfo.InvariantCulture), double.Parse(f[5], CultureInfo.InvariantCulture)));
        }
        return [.. records];
    }

    /// <summary>The query sets by kind, in file order.</summary>
    public static Dictionary<string, List<string[]>> ReadQueries(string path)
    {
        var sets = new Dictionary<string, List<string[]>>(StringComparer.Ordinal);
        foreach (var line in File.ReadLines(path))
        {
            var f = line.Split('\t');
            if (!sets.TryGetValue(f[0], out var set))
                sets[f[0]] = set = [];
            set.Add(f[1..]);
        }
        return sets;
    }

    // Queries come from randomly chosen records, so values are drawn as often as the data holds
    // them (a popular brand is queried more often), like a real query log's skew.
    private static void WriteQueries(TextWriter writer, List<BenchRecord> records, int perKind, SplitMix64 random)
    {
        BenchRecord Pick() => records[(int)random.NextBelow((ulong)records.Count)];

        for (var i = 0; i < perKind; i++)
            writer.Write($"eq\t{Pick().Brand}\n");
        // Windows from about one hour to one week: ~0.03 records a second means ~100 to ~20,000 hits
        // at 1M records, log-uniformly spread.
        for (var i = 0; i < perKind; i++)
        {
            var width = (long)Math.Exp(Math.Log(3_600) + (random.NextDouble() * Math.Log(604_800.0 / 3_600)));
            var lower = Pick().Timestamp;
            writer.Write(FormattableString.Invariant($"range\t{lower}\t{lower + width}\n"));
        }
        for (var i = 0; i < perKind; i++)
        {
            var words = QueryWords(Pick().Text);
            var first = words[(int)random.NextBelow((ulong)words.Count)];
            string second;
            do
            {
                second = words[(int)random.NextBelow((ulong)words.Count)];
            }
            while (words.Count > 1 && second == first);
            writer.Write($"text\t{first} {second}\n");
        }
        for (var i = 0; i < perKind; i++)
            writer.Write($"sort\t{Pick().Brand}\n");
    }

    /// <summary>The record's distinct words that are not stop words (a query of stop words finds nothing on either side).</summary>
    private static List<string> QueryWords(string text)
    {
        var words = new List<string>();
        foreach (var raw in text.Split(' '))
        {
            var word = raw.TrimEnd(',', '.').ToLowerInvariant();
            if (!Folio.Indexing.Analysis.EnglishStopWords.Set.Contains(word) && !words.Contains(word))
                words.Add(word);
        }
        return words;
    }

    private static string[] BrandNames(IReadOnlyList<string> vocabulary, SplitMix64 random)
    {
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var ordered = new List<string>(BrandCount);
        while (ordered.Count < BrandCount)
        {
            var a = vocabulary[(int)random.NextBelow((ulong)vocabulary.Count)];
            var b = vocabulary[(int)random.NextBelow((ulong)vocabulary.Count)];
            var name = $"{char.ToUpperInvariant(a[0])}{a[1..]} {char.ToUpperInvariant(b[0])}{b[1..]}";
            if (names.Add(name))
                ordered.Add(name);
        }
        return [.. ordered];
    }

    private static void WriteAtomically(string path, Action<TextWriter> write)
    {
        var temporary = path + ".tmp";
        using (var writer = new StreamWriter(temporary, append: false, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false), 1 << 20))
            write(writer);
        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>A fixed, portable generator: <see cref="Random"/>'s sequence is not promised across runtimes.</summary>
    private sealed class SplitMix64(ulong seed)
    {
        private ulong _state = seed;

        public ulong Next()
        {
            var z = _state += 0x9E37_79B9_7F4A_7C15UL;
            z = (z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9UL;
            z = (z ^ (z >> 27)) * 0x94D0_49BB_1331_11EBUL;
            return z ^ (z >> 31);
        }

        public ulong NextBelow(ulong bound) => Next() % bound;

        public double NextDouble() => (Next() >> 11) * (1.0 / (1UL << 53));
    }

    /// <summary>Draws rank i (0-based) with weight 1/(i+1)^s, by binary search over the cumulative weights.</summary>
    private sealed class ZipfSampler
    {
        private readonly double[] _cumulative;

        public ZipfSampler(int count, double exponent)
        {
            _cumulative = new double[count];
            var sum = 0.0;
            for (var i = 0; i < count; i++)
            {
                sum += 1 / Math.Pow(i + 1, exponent);
                _cumulative[i] = sum;
            }
        }

        public int Next(SplitMix64 random)
        {
            var target = random.NextDouble() * _cumulative[^1];
            var index = Array.BinarySearch(_cumulative, target);
            return Math.Min(index >= 0 ? index : ~index, _cumulative.Length - 1);
        }
    }
}

/// <summary>The generator's English vocabulary, most frequent first (embedded <c>english-words.txt</c>).</summary>
internal static class EnglishVocabulary
{
    public static IReadOnlyList<string> Load()
    {
        using var stream = typeof(EnglishVocabulary).Assembly.GetManifestResourceStream("Folio.Benchmarks.Search.english-words.txt")
            ?? throw new InvalidOperationException("The english-words.txt resource is missing.");
        using var reader = new StreamReader(stream, Encoding.UTF8);
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var words = new List<string>();
        while (reader.ReadLine() is { } line)
        {
            if (line.StartsWith('#'))
                continue;
            foreach (var word in line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            {
                if (seen.Add(word))
                    words.Add(word);
            }
        }
        return words;
    }
}
