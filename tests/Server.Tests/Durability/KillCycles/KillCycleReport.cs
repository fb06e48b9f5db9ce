using System.Globalization;
using System.Text;

namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>The counts of a kill-cycle run and the anomalies it found, from every task of the run at once.</summary>
internal sealed class KillCycleReport
{
    private readonly Lock _gate = new();
    private readonly SortedDictionary<string, long> _counts = new(StringComparer.Ordinal);
    private readonly List<string> _anomalies = [];

    public IReadOnlyList<string> Anomalies
    {
        get
        {
            lock (_gate)
                return [.. _anomalies];
        }
    }

    public void Count(string what, long by = 1)
    {
        lock (_gate)
            _counts[what] = _counts.GetValueOrDefault(what) + by;
    }

    public long Get(string what)
    {
        lock (_gate)
            return _counts.GetValueOrDefault(what);
    }

    public void Anomaly(string what)
    {
        lock (_gate)
        {
            // A broken invariant tends to repeat on every later check; the first few say what it is.
            if (_anomalies.Count < 200)
                _anomalies.Add(what);
            _counts["anomalies"] = _counts.GetValueOrDefault("anomalies") + 1;
        }
    }

    /// <summary>Every count, one "name: value" per line, names in order.</summary>
    public string Summary()
    {
        var text = new StringBuilder();
        lock (_gate)
        {
            foreach ((string name, long value) in _counts)
                text.Append(name).Append(": ").AppendLine(value.ToString(CultureInfo.InvariantCulture));
        }

        return text.ToString();
    }
}
