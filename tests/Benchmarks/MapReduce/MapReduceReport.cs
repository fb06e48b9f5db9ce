using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.MapReduce;

/// <summary>
/// One store's costs per update for one group size, in milliseconds: until the group's result is current, the write
/// alone, SQLite's re-aggregation alone, Folio's index batch (its commit) and its reduce (from the index's stats),
/// and the server's CPU time per update (NaN when not measured).
/// </summary>
public sealed record UpdateCosts(double[] UntilCurrent, double[] Writes, double[]? Reaggregate, double[]? BatchMs, double[]? ReduceMs, double ServerCpuMs);

/// <summary>The tables mapreduce-load prints at its end (markdown), with progress lines on stderr as the rows come in.</summary>
public sealed class MapReduceReport
{
    private readonly StringBuilder _builds = new();
    private readonly StringBuilder _updates = new();
    private readonly List<string> _notes = [];
    private readonly List<string> _checks = [];
    private readonly Dictionary<string, List<double>> _rates = new(StringComparer.Ordinal);

    /// <summary>Starts the tables.</summary>
    public MapReduceReport()
    {
        _builds.AppendLine("| step | store | orders | rows, entries, groups | seconds | orders/s | server CPU s | load avg |");
        _builds.AppendLine("|---|---|---:|---|---:|---:|---:|---:|");
        _updates.AppendLine("| store | group size (entries) | updates | until current p50 ms | p99 ms | max ms | write p50 ms | re-aggregate p50 ms | re-aggregate p99 ms | index batch p50 ms | reduce p50 ms | server CPU ms/update | load avg |");
        _updates.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    }

    /// <summary>Mismatches against the oracle; the command fails when there are any.</summary>
    public List<string> Failures { get; } = [];

    /// <summary>Adds a timed build or load step; <paramref name="rateKey"/> keeps its orders/s for the ratios.</summary>
    public void AddBuild(string step, string store, long orders, string detail, TimeSpan elapsed, TimeSpan? serverCpu, string loadAverage, string? rateKey = null)
    {
        double rate = orders / elapsed.TotalSeconds;
        if (rateKey is not null)
            Keep(rateKey, rate);
        string cpu = serverCpu is { } c ? c.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture) : "";
        string line = string.Create(CultureInfo.InvariantCulture,
            $"| {step} | {store} | {orders:N0} | {detail} | {elapsed.TotalSeconds:0.00} | {rate:N0} | {cpu} | {loadAverage} |");
        _builds.AppendLine(line);
        Console.Error.WriteLine("  " + line);
    }

    /// <summary>Adds one store's per-update costs for one group size (the arrays are sorted here).</summary>
    public void AddUpdates(string store, int groupSize, UpdateCosts costs, string loadAverage, string? rateKey = null)
    {
        double p50 = Median(costs.UntilCurrent);
        if (rateKey is not null)
            Keep(rateKey, p50);
        string cpu = double.IsNaN(costs.ServerCpuMs) ? "" : costs.ServerCpuMs.ToString("0.00", CultureInfo.InvariantCulture);
        string line = string.Create(CultureInfo.InvariantCulture,
            $"| {store} | {groupSize:N0} | {costs.UntilCurrent.Length} | {p50:0.000} | {Percentile(costs.UntilCurrent, 0.99):0.000} | {costs.UntilCurrent[^1]:0.000} | {Median(costs.Writes):0.000} | ") +
            $"{Cell(costs.Reaggregate, 0.50)} | {Cell(costs.Reaggregate, 0.99)} | {Cell(costs.BatchMs, 0.50)} | {Cell(costs.ReduceMs, 0.50)} | {cpu} | {loadAverage} |";
        _updates.AppendLine(line);
        Console.Error.WriteLine("  " + line);
    }

    /// <summary>A note printed under the tables (batch statistics, checks).</summary>
    public void Note(string note)
    {
        _notes.Add(note);
        Console.Error.WriteLine("  " + note);
    }

    /// <summary>A correctness check's summary.</summary>
    public void Check(string summary)
    {
        _checks.Add(summary);
        Console.Error.WriteLine("  " + summary);
    }

    /// <summary>The mean of a step's kept rates (orders/s) or medians (ms) over its runs, if it ran.</summary>
    public double? Rate(string key)
    {
        if (!_rates.TryGetValue(key, out List<double>? values))
            return null;
        double sum = 0;
        foreach (double value in values)
            sum += value;
        return sum / values.Count;
    }

    /// <summary>The nearest-rank percentile of sorted values.</summary>
    public static double Percentile(double[] sorted, double p)
    {
        if (sorted.Length == 0)
            return double.NaN;
        int rank = (int)Math.Ceiling(p * sorted.Length);
        return sorted[Math.Clamp(rank - 1, 0, sorted.Length - 1)];
    }

    private void Keep(string key, double value)
    {
        if (!_rates.TryGetValue(key, out List<double>? values))
            _rates[key] = values = [];
        values.Add(value);
    }

    private static double Median(double[] values)
    {
        Array.Sort(values);
        return Percentile(values, 0.50);
    }

    private static string Cell(double[]? values, double p)
    {
        if (values is null)
            return "";
        Array.Sort(values);
        return Percentile(values, p).ToString("0.000", CultureInfo.InvariantCulture);
    }

    /// <summary>Writes the tables, the ratios against the targets, the notes and the checks to stdout.</summary>
    public void Print(IEnumerable<string> ratios)
    {
        Console.WriteLine();
        Console.WriteLine(_builds.ToString());
        Console.WriteLine(_updates.ToString());
        foreach (string ratio in ratios)
            Console.WriteLine("- " + ratio);
        Console.WriteLine();
        foreach (string note in _notes)
            Console.WriteLine("- " + note);
        Console.WriteLine();
        foreach (string check in _checks)
            Console.WriteLine("- check " + check);
        foreach (string failure in Failures)
            Console.WriteLine("- MISMATCH " + failure);
    }
}
