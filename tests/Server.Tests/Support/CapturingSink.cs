using Serilog.Core;
using Serilog.Events;

namespace Folio.Server.Tests.Support;

/// <summary>Keeps every log event and lets a test await the first one matching a condition.</summary>
public sealed class CapturingSink : ILogEventSink
{
    private readonly object _gate = new();
    private readonly List<LogEvent> _events = [];
    private readonly List<Waiter> _waiters = [];

    public IReadOnlyList<LogEvent> Events
    {
        get
        {
            lock (_gate)
                return _events.ToArray();
        }
    }

    public void Emit(LogEvent logEvent)
    {
        List<Waiter>? satisfied = null;
        lock (_gate)
        {
            _events.Add(logEvent);
            for (int i = _waiters.Count - 1; i >= 0; i--)
            {
                if (_waiters[i].Predicate(logEvent))
                {
                    (satisfied ??= []).Add(_waiters[i]);
                    _waiters.RemoveAt(i);
                }
            }
        }

        if (satisfied is null)
            return;
        foreach (Waiter waiter in satisfied)
            waiter.Completion.TrySetResult(logEvent);
    }

    public async Task<LogEvent> WaitForAsync(Func<LogEvent, bool> predicate, string description)
    {
        var waiter = new Waiter(predicate, new TaskCompletionSource<LogEvent>(TaskCreationOptions.RunContinuationsAsynchronously));
        lock (_gate)
        {
            foreach (LogEvent seen in _events)
            {
                if (predicate(seen))
                    return seen;
            }

            _waiters.Add(waiter);
        }

        try
        {
            return await waiter.Completion.Task.WaitAsync(TestTimeouts.Default);
        }
        catch (TimeoutException)
        {
            lock (_gate)
            {
                string seen = string.Join(Environment.NewLine, _events.Select(e => e.RenderMessage()));
                throw new TimeoutException($"No log event {description} within {TestTimeouts.Default}. Seen:{Environment.NewLine}{seen}");
            }
        }
    }

    public Task<LogEvent> WaitForRequestAsync(string method, string path) =>
        WaitForAsync(
            e => e.MessageTemplate.Text.StartsWith("HTTP ", StringComparison.Ordinal)
                && Scalar(e, "RequestMethod") as string == method
                && Scalar(e, "RequestPath") as string == path,
            $"for request {method} {path}");

    public static object? Scalar(LogEvent logEvent, string property) =>
        logEvent.Properties.TryGetValue(property, out LogEventPropertyValue? value) && value is ScalarValue scalar ? scalar.Value : null;

    private sealed record Waiter(Func<LogEvent, bool> Predicate, TaskCompletionSource<LogEvent> Completion);
}
