using BenchmarkDotNet.Attributes;
using Folio.Server.Logging;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Serilog;
using Serilog.Core;
using Serilog.Events;
using Serilog.Extensions.Hosting;
using Serilog.Formatting;
using Serilog.Formatting.Compact;

namespace Folio.Benchmarks.Logging;

/// <summary>
/// What the request line costs the request's thread: Serilog.AspNetCore's middleware as the server configures it
/// (<see cref="RequestLogging"/>) writing through a synchronous sink that formats with <see cref="CompactJsonFormatter"/>
/// into a <see cref="StreamWriter"/> over <see cref="Stream.Null"/>; the formatter alone; and handing an event to
/// Serilog.Sinks.Async's writer thread (in front of the same formatting sink). Folio's hand-written line, JSON formatter
/// and writer thread, which these replaced, are in docs/benchmarks.md.
/// Run: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*RequestLogBenchmarks*' --inProcess</c>.
/// </summary>
[MemoryDiagnoser]
public class RequestLogBenchmarks
{
    private readonly StreamWriter _output = new(Stream.Null);
    private readonly ITextFormatter _compact = new CompactJsonFormatter();
    private readonly DefaultHttpContext _context = new();
    private Logger _requestLogger = null!;
    private Logger _asyncLogger = null!;
    private RequestDelegate _requestLine = null!;
    private LogEvent _event = null!;

    [GlobalSetup]
    public void Setup()
    {
        _context.Request.Method = "GET";
        _context.Request.Path = "/databases/shop/docs";
        _context.TraceIdentifier = "0HN8A1B2C3D4E:00000001";
        _requestLogger = new LoggerConfiguration().WriteTo.Sink(new FormattingSink(_compact)).CreateLogger();
        _requestLine = Pipeline(_requestLogger);
        _asyncLogger = new LoggerConfiguration()
            .WriteTo.Async(sinks => sinks.Sink(new FormattingSink(_compact)), bufferSize: LoggingSetup.QueuedEventsLimit)
            .CreateLogger();

        var capture = new CapturingSink();
        using (Logger logger = new LoggerConfiguration().WriteTo.Sink(capture).CreateLogger())
            Pipeline(logger)(_context).GetAwaiter().GetResult();
        _event = capture.Event ?? throw new InvalidOperationException("The request line was not logged.");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _requestLogger.Dispose();
        _asyncLogger.Dispose();
    }

    /// <summary>The request line as the server writes it, formatted on the request's thread.</summary>
    [Benchmark(Baseline = true)]
    public Task RequestLine() => _requestLine(_context);

    /// <summary>The file's formatter on the request line's event.</summary>
    [Benchmark]
    public void Format_Compact()
    {
        _compact.Format(_event, _output);
        _output.Write('\n');
    }

    /// <summary>Handing the request line's event to Serilog.Sinks.Async's writer thread.</summary>
    [Benchmark]
    public void Emit_SerilogSinksAsync() => _asyncLogger.Write(_event);

    /// <summary>The middleware around a handler that answers 200, configured as the server does, logging to <paramref name="logger"/>.</summary>
    private static RequestDelegate Pipeline(Logger logger)
    {
        var services = new ServiceCollection();
        services.AddSingleton(new DiagnosticContext(logger));
        services.AddSingleton<IDiagnosticContext>(provider => provider.GetRequiredService<DiagnosticContext>());
        var app = new ApplicationBuilder(services.BuildServiceProvider());
        app.UseSerilogRequestLogging(options => RequestLogging.Configure(options, logger));
        app.Run(context =>
        {
            context.Response.StatusCode = StatusCodes.Status200OK;
            return Task.CompletedTask;
        });
        return app.Build();
    }

    /// <summary>Formats each event into a writer over <see cref="Stream.Null"/>: a file sink's work without the disk.</summary>
    private sealed class FormattingSink(ITextFormatter formatter) : ILogEventSink
    {
        private readonly StreamWriter _writer = new(Stream.Null);

        public void Emit(LogEvent logEvent)
        {
            formatter.Format(logEvent, _writer);
            _writer.Write('\n');
        }
    }

    private sealed class CapturingSink : ILogEventSink
    {
        public LogEvent? Event { get; private set; }

        public void Emit(LogEvent logEvent) => Event = logEvent;
    }
}
