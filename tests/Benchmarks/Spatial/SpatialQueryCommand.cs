using System.Diagnostics;
using System.Globalization;
using Folio.Benchmarks.Storage;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Indexing.Spatial;
using Folio.Storage;

namespace Folio.Benchmarks.Spatial;

/// <summary>
/// Circle queries over <c>--points</c> random points (uniform over latitude 25..50, longitude −125..−65) in a spatial
/// field of each engine, beside a scan that tests every point with haversine from arrays in memory, in one run. Each
/// query builds its shape and cover, walks the index and counts the matches with the first page of 25 (what a query
/// answer needs before documents are read); the scan counts the same matches, and both counts must agree.
/// <code>dotnet run -c Release --project tests/Benchmarks -- spatial-load [--points 1000000] [--queries 300] [--radius 20] [--engines Folio,Lucene] [--dir /tmp]</code>
/// </summary>
internal static class SpatialQueryCommand
{
    public const string Command = "spatial-load";
    private const string Field = "Location";
    private const int BatchSize = 50_000;

    public static int Run(string[] args)
    {
        int points = 1_000_000, queries = 300;
        var radii = new List<double> { 20 };
        string[] engines = ["Folio", "Lucene"];
        var directory = Path.GetTempPath();
        for (var i = 0; i + 1 < args.Length; i += 2)
        {
            switch (args[i])
            {
                case "--points": points = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--queries": queries = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--radius": radii = [.. args[i + 1].Split(',').Select(r => double.Parse(r, CultureInfo.InvariantCulture))]; break;
                case "--engines": engines = args[i + 1].Split(','); break;
                case "--dir": directory = args[i + 1]; break;
                default:
                    Console.Error.WriteLine("usage: spatial-load [--points N] [--queries N] [--radius km[,km…]] [--engines Folio,Lucene] [--dir PATH]");
                    return 2;
            }
        }

        var random = new Random(29);
        var lats = new double[points];
        var lngs = new double[points];
        for (var i = 0; i < points; i++)
        {
            lats[i] = 25 + random.NextDouble() * 25;
            lngs[i] = -125 + random.NextDouble() * 60;
        }
        Console.WriteLine($"spatial-load: {points:N0} points, {queries} circle queries per radius; load {MachineInfo.LoadAverage()}");
        Console.WriteLine();
        Console.WriteLine("| engine | radius | mean matches | index build (s) | ours p50 (µs) | ours p99 (µs) | scan p50 (µs) | ours ÷ scan p50 |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var engine in engines)
        {
            var root = StorageWorkload.FreshDirectory(directory, $"folio-spatial-{engine}-{Environment.ProcessId}");
            try
            {
                var schema = new IndexSchema().Add(Field, new FieldOptions(FieldKind.Exact, CaseSensitive: true));
                using var index = SearchEngines.Get(engine).Open(StorageOptions.ForPath(root), schema);
                var build = Stopwatch.StartNew();
                for (var start = 0; start < points; start += BatchSize)
                {
                    using var batch = index.BeginBatch();
                    for (var i = start; i < Math.Min(points, start + BatchSize); i++)
                        batch.Add(new IndexEntry("p/" + i).Add(Field, SpatialTerm.Encode(lats[i], lngs[i])));
                    batch.Commit(start + BatchSize);
                }
                var built = build.Elapsed.TotalSeconds;
                using var searcher = index.OpenSearcher();
                foreach (var radius in radii)
                    Measure(engine, searcher, lats, lngs, radius, queries, built);
            }
            finally
            {
                Directory.Delete(root, recursive: true);
            }
        }
        Console.WriteLine();
        Console.WriteLine($"load after: {MachineInfo.LoadAverage()}");
        return 0;
    }

    private static void Measure(string engine, IEngineSearcher searcher, double[] lats, double[] lngs, double radius, int queries, double built)
    {
        var random = new Random(7);
        var ours = new double[queries];
        var scan = new double[queries];
        long matches = 0;
        // Warm the caches the way a serving index is warm; the timed queries use other centres.
        for (var i = 0; i < 20; i++)
            searcher.Search(new SpatialQuery(Field, new CircleShape(radius, 30 + random.NextDouble() * 15, -120 + random.NextDouble() * 50, SpatialUnits.Kilometers)), 0, 25);
        for (var q = 0; q < queries; q++)
        {
            var lat = 27 + random.NextDouble() * 21;
            var lng = -123 + random.NextDouble() * 56;
            var started = Stopwatch.GetTimestamp();
            var page = searcher.Search(new SpatialQuery(Field, new CircleShape(radius, lat, lng, SpatialUnits.Kilometers)), 0, 25);
            ours[q] = Stopwatch.GetElapsedTime(started).TotalMicroseconds;

            started = Stopwatch.GetTimestamp();
            long count = 0;
            for (var i = 0; i < lats.Length; i++)
            {
                if (GeoMath.DistanceKm(lat, lng, lats[i], lngs[i]) <= radius)
                    count++;
            }
            scan[q] = Stopwatch.GetElapsedTime(started).TotalMicroseconds;
            if (count != page.TotalHits)
                throw new InvalidOperationException($"{engine}: the index found {page.TotalHits} points within {radius} km of ({lat}, {lng}), the scan {count}.");
            matches += count;
        }
        Array.Sort(ours);
        Array.Sort(scan);
        var p50 = ours[queries / 2];
        var scan50 = scan[queries / 2];
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"| {engine} | {radius} km | {matches / (double)queries:F0} | {built:F0} | {p50:N0} | {ours[(int)(queries * 0.99)]:N0} | {scan50:N0} | {p50 / scan50:F4}× |"));
    }
}
