using System.Collections.Concurrent;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.Http;

/// <summary>
/// Which types this process allocates, from the runtime's allocation-tick events (one about every
/// 100 KB, naming the type that crossed the mark): a sampled profile with no tool to install.
/// The listener's own event objects show up in it too, at one per tick.
/// </summary>
public sealed class AllocationSampler : EventListener
{
    private const EventKeywords GcKeyword = (EventKeywords)0x1;
    private readonly ConcurrentDictionary<string, long> _bytesByType = new(StringComparer.Ordinal);
    private volatile bool _recording;

    /// <summary>Starts counting ticks.</summary>
    public void Start() => _recording = true;

    /// <summary>Stops counting and returns the types with the most sampled bytes, as markdown table rows.</summary>
    public string Stop(int top, long requests)
    {
        _recording = false;
        long total = 0;
        foreach (long bytes in _bytesByType.Values)
            total += bytes;
        var text = new StringBuilder();
        foreach ((string type, long bytes) in _bytesByType.OrderByDescending(pair => pair.Value).Take(top))
            text.AppendLine(CultureInfo.InvariantCulture, $"| {type} | {100.0 * bytes / Math.Max(1, total):0.0}% | {(double)bytes / Math.Max(1, requests):N0} |");
        return text.ToString();
    }

    /// <inheritdoc/>
    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
            EnableEvents(eventSource, EventLevel.Verbose, GcKeyword);
    }

    /// <inheritdoc/>
    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (!_recording || eventData.EventName is null || !eventData.EventName.StartsWith("GCAllocationTick", StringComparison.Ordinal) || eventData.PayloadNames is null)
            return;
        int typeIndex = eventData.PayloadNames.IndexOf("TypeName");
        int amountIndex = eventData.PayloadNames.IndexOf("AllocationAmount64");
        if (typeIndex < 0 || amountIndex < 0)
            return;
        string type = eventData.Payload![typeIndex] as string ?? "?";
        long amount = Convert.ToInt64(eventData.Payload[amountIndex], CultureInfo.InvariantCulture);
        _bytesByType.AddOrUpdate(type, amount, (_, sum) => sum + amount);
    }
}
