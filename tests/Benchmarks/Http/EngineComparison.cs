using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.Http;

/// <summary>
/// query-load's engines side by side (<c>--engines</c>): the server's indexing rate and each query set's rate and
/// latencies per search engine, means over the runs, and the first engine's figures divided by each other's.
/// </summary>
public sealed class EngineComparison
{
    private readonly List<string> _engines = [];
    private readonly Dictionary<string, List<double>> _indexing = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<double>> _indexingCpu = new(StringComparer.Ordinal);
    private readonly Dictionary<(string Engine, string Kind, int Clients), List<WrkResult>> _queries = [];
    private readonly Dictionary<(string Engine, string Kind), long> _totals = [];
    private readonly List<(string Kind, int Clients)> _sets = [];

    /// <summary>The indexing rates (documents/s) and server CPU seconds <paramref name="engine"/>'s runs measured.</summary>
    public void AddIndexing(string engine, IEnumerable<double> rates, IEnumerable<double> cpuSeconds)
    {
        Engine(engine);
        _indexing[engine] = [.. rates];
        _indexingCpu[engine] = [.. cpuSeconds];
    }

    /// <summary>One wrk run of the query set <paramref name="kind"/> at <paramref name="clients"/> on <paramref name="engine"/>.</summary>
    public void AddQuery(string engine, string kind, int clients, WrkResult result, long sampleTotal)
    {
        Engine(engine);
        if (!_sets.Contains((kind, clients)))
            _sets.Add((kind, clients));
        if (!_queries.TryGetValue((engine, kind, clients), out var runs))
            _queries[(engine, kind, clients)] = runs = [];
        runs.Add(result);
        _totals[(engine, kind)] = sampleTotal;
    }

    /// <summary>The comparison as a markdown table; empty with fewer than two engines.</summary>
    public string Report()
    {
        if (_engines.Count < 2)
            return "";
        var first = _engines[0];
        var s = new StringBuilder();
        s.AppendLine(CultureInfo.InvariantCulture, $"Engines compared (means over the runs; ratios are {first} ÷ the other engine):");
        s.AppendLine();
        s.Append("| measure |");
        foreach (var engine in _engines)
            s.Append(CultureInfo.InvariantCulture, $" {engine} |");
        foreach (var other in _engines.Skip(1))
            s.Append(CultureInfo.InvariantCulture, $" {first} / {other} |");
        s.AppendLine(" better when |");
        s.Append("|---|");
        for (var i = 0; i < (2 * _engines.Count) - 1; i++)
            s.Append("---:|");
        s.AppendLine("---|");
        if (_indexing.Values.Any(rates => rates.Count > 0))
        {
            Row(s, "indexing through the server (documents/s)", e => Mean(_indexing.GetValueOrDefault(e)), "N0", "higher");
            // On a shared machine the server's CPU time moves far less with other work than its wall time does.
            Row(s, "indexing through the server: server CPU s", e => Mean(_indexingCpu.GetValueOrDefault(e)), "0.0", "lower");
        }
        foreach (var (kind, clients) in _sets)
        {
            Row(s, $"{kind}, {clients} client(s): queries/s", e => Mean(Runs(e, kind, clients)?.Select(r => r.RequestsPerSecond)), "N0", "higher");
            Row(s, $"{kind}, {clients} client(s): p50 ms", e => Mean(Runs(e, kind, clients)?.Select(r => r.P50Ms)), "0.00", "lower");
            Row(s, $"{kind}, {clients} client(s): p99 ms", e => Mean(Runs(e, kind, clients)?.Select(r => r.P99Ms)), "0.00", "lower");
        }
        s.AppendLine();
        var totals = _sets.Select(set => set.Kind).Distinct()
            .Select(kind => $"{kind}: " + string.Join(", ", _engines.Select(e => $"{e} {(_totals.TryGetValue((e, kind), out var t) ? t.ToString("N0", CultureInfo.InvariantCulture) : "-")}")));
        s.AppendLine("TotalResults of the sample query per set (the engines must agree): " + string.Join("; ", totals));
        return s.ToString();
    }

    private void Engine(string engine)
    {
        if (!_engines.Contains(engine))
            _engines.Add(engine);
    }

    private List<WrkResult>? Runs(string engine, string kind, int clients) => _queries.GetValueOrDefault((engine, kind, clients));

    private void Row(StringBuilder s, string measure, Func<string, double?> value, string format, string better)
    {
        s.Append(CultureInfo.InvariantCulture, $"| {measure} |");
        foreach (var engine in _engines)
            s.Append(CultureInfo.InvariantCulture, $" {(value(engine) is { } v ? v.ToString(format, CultureInfo.InvariantCulture) : "-")} |");
        var mine = value(_engines[0]);
        foreach (var other in _engines.Skip(1))
            s.Append(CultureInfo.InvariantCulture, $" {(mine is { } a && value(other) is { } b && b > 0 ? (a / b).ToString("0.00", CultureInfo.InvariantCulture) + "×" : "-")} |");
        s.AppendLine(CultureInfo.InvariantCulture, $" {better} |");
    }

    private static double? Mean(IEnumerable<double>? values) => values?.ToList() is { Count: > 0 } list ? list.Average() : null;
}
