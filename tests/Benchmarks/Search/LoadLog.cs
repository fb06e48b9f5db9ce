using Folio.Benchmarks.Storage;

namespace Folio.Benchmarks.Search;

/// <summary>The machine's load (/proc/loadavg) at the moments a run names, for its report: other helpers share the cores.</summary>
internal sealed class LoadLog(TextWriter log)
{
    private readonly List<string> _entries = [];

    /// <summary>Every moment noted, in order.</summary>
    public IReadOnlyList<string> Entries => _entries;

    /// <summary>The report's closing section: the moments noted in <paramref name="entries"/>, one a line.</summary>
    public static void Append(System.Text.StringBuilder report, IReadOnlyList<string> entries)
    {
        report.AppendLine("Machine load (/proc/loadavg):");
        report.AppendLine();
        foreach (var entry in entries)
            report.AppendLine("- " + entry);
    }

    /// <summary>Notes the load average now, as of <paramref name="moment"/>, and echoes it.</summary>
    public void Note(string moment)
    {
        var entry = $"{moment}: load average {MachineInfo.LoadAverage()}";
        _entries.Add(entry);
        log.WriteLine(entry);
    }
}
