using Folio.Server.Logging;
using Folio.Server.Tests.Support;
using Serilog;
using Serilog.Core;
using Serilog.Events;
using Serilog.Parsing;

namespace Folio.Server.Tests.Logging;

public sealed class BackgroundLogSinkTests
{
    private static LogEvent Event(int number) => new(
        DateTimeOffset.UtcNow,
        LogEventLevel.Information,
        null,
        new MessageTemplateParser().Parse("Event {Number}"),
        [new LogEventProperty("Number", new ScalarValue(number))]);

    [Fact]
    public void Emit_WritesEveryEventInOrder_WhenDisposedRightAfter()
    {
        var target = new GatedSink(open: true);
        var sink = new BackgroundLogSink(new LoggerConfiguration().WriteTo.Sink(target).CreateLogger());
        for (int i = 0; i < 10_000; i++)
            sink.Emit(Event(i));

        sink.Dispose();

        Assert.Equal(10_000, target.Events.Count);
        for (int i = 0; i < 10_000; i++)
            Assert.Equal(i, ((ScalarValue)target.Events[i].Properties["Number"]).Value);
        Assert.Equal(0, sink.Dropped);
    }

    [Fact]
    public void Emit_DropsAndLaterReportsEvents_WhenTheWriterIsCapacityBehind()
    {
        var target = new GatedSink(open: false);
        var sink = new BackgroundLogSink(new LoggerConfiguration().WriteTo.Sink(target).CreateLogger());
        sink.Emit(Event(-1));
        Assert.True(target.Entered.Wait(TestTimeouts.Default), "the writer never took the first event");

        for (int i = 0; i < BackgroundLogSink.Capacity + 10; i++)
            sink.Emit(Event(i));
        Assert.Equal(10, sink.Dropped);

        target.Open();
        sink.Dispose();

        Assert.Equal(1 + BackgroundLogSink.Capacity + 1, target.Events.Count);
        LogEvent warning = target.Events[^1];
        Assert.Equal(LogEventLevel.Warning, warning.Level);
        Assert.Equal(10L, ((ScalarValue)warning.Properties["DroppedEvents"]).Value);
    }

    /// <summary>Records events; while closed, the writer blocks in its first <see cref="Emit"/>.</summary>
    private sealed class GatedSink(bool open) : ILogEventSink
    {
        private readonly ManualResetEventSlim _gate = new(open);

        public List<LogEvent> Events { get; } = [];

        public ManualResetEventSlim Entered { get; } = new(false);

        public void Open() => _gate.Set();

        public void Emit(LogEvent logEvent)
        {
            Entered.Set();
            _gate.Wait();
            Events.Add(logEvent);
        }
    }
}
