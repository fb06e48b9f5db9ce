namespace Folio.Benchmarks.Search;

/// <summary>The machine's load (/proc/loadavg) at the moments a run names, for its report: other helpers share the cores.</summary>
internal sealed class LoadLog(TextWriter log)
{
    private readonly List<string> _entries = [];

    /// <summary>Every moment noted, in order.</summary>
    public IReadOnlyList<string> Entries => _entries;

    /// <summary>Notes the load average now, as of <paramref name="moment"/>, and echoes it.</summary>
    public void Note(string moment)
    {
        var entry = $"{moment}: load average {File.ReadAllText("/proc/loadavg").Trim()}";
        _entries.Add(entry);
        log.WriteLine(entry);
    }
}
