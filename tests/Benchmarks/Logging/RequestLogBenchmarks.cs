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
using Serilog.Formatting.Json;

namespace Folio.Benchmarks.Logging;

/// <summary>
/// The line each request logs, Folio's hand-written way beside the well-kept packages that do the same: the request
/// line (<see cref="CompletedRequestLog"/> vs Serilog.AspNetCore's <c>UseSerilogRequestLogging</c> middleware, each
/// writing through a synchronous sink that formats into a <see cref="StreamWriter"/> over <see cref="Stream.Null"/>)
/// and the formatter alone (<see cref="JsonLogFormatter"/> vs Serilog's <see cref="JsonFormatter"/> with the message
/// rendered, and Serilog.Formatting.Compact's two formatters), on the same event.
/// Run: <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*RequestLogBenchmarks*' --inProcess</c>.
/// </summary>
[MemoryDiagnoser]
public class RequestLogBenchmarks
{
    private readonly StreamWriter _output = new(Stream.Null);
    private readonly ITextFormatter _folioFormatter = new JsonLogFormatter();
    private readonly ITextFormatter _serilogJson = new JsonFormatter(renderMessage: true);
    private readonly ITextFormatter _compact = new CompactJsonFormatter();
    private readonly ITextFormatter _renderedCompact = new RenderedCompactJsonFormatter();
    private readonly DefaultHttpContext _context = new();
    private Logger _folioLogger = null!;
    private Logger _aspNetCoreLogger = null!;
    private Logger _aspNetCoreFolioFormatLogger = null!;
    private CompletedRequestLog _folio = null!;
    private RequestDelegate _aspNetCore = null!;
    private RequestDelegate _aspNetCoreFolioFormat = null!;
    private LogEvent _event = null!;

    [GlobalSetup]
    public void Setup()
    {
        _context.Request.Method = "GET";
        _context.Request.Path = "/databases/shop/docs";
        _context.TraceIdentifier = "0HN8A1B2C3D4E:00000001";
        _folioLogger = new LoggerConfiguration().WriteTo.Sink(new FormattingSink(new JsonLogFormatter())).CreateLogger();
        _folio = new CompletedRequestLog(_folioLogger, "Folio.Server.Requests");
        _aspNetCoreLogger = new LoggerConfiguration().WriteTo.Sink(new FormattingSink(new CompactJsonFormatter())).CreateLogger();
        _aspNetCore = Pipeline(_aspNetCoreLogger);
        _aspNetCoreFolioFormatLogger = new LoggerConfiguration().WriteTo.Sink(new FormattingSink(new JsonLogFormatter())).CreateLogger();
        _aspNetCoreFolioFormat = Pipeline(_aspNetCoreFolioFormatLogger);
        var capture = new CapturingSink();
        using (var logger = new LoggerConfiguration().WriteTo.Sink(capture).CreateLogger())
            new CompletedRequestLog(logger, "Folio.Server.Requests").Write(_context, "GET", "/databases/shop/docs", 200, 0.4213);
        _event = capture.Event ?? throw new InvalidOperationException("The request line was not logged.");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _folioLogger.Dispose();
        _aspNetCoreLogger.Dispose();
        _aspNetCoreFolioFormatLogger.Dispose();
    }

    /// <summary>Serilog.AspNetCore's request logging around a handler that answers 200, logging to <paramref name="logger"/>.</summary>
    private static RequestDelegate Pipeline(Logger logger)
    {
        var services = new ServiceCollection();
        services.AddSingleton(new DiagnosticContext(logger));
        services.AddSingleton<IDiagnosticContext>(provider => provider.GetRequiredService<DiagnosticContext>());
        var app = new ApplicationBuilder(services.BuildServiceProvider());
        app.UseSerilogRequestLogging(options => options.Logger = logger);
        app.Run(context =>
        {
            context.Response.StatusCode = StatusCodes.Status200OK;
            return Task.CompletedTask;
        });
        return app.Build();
    }

    /// <summary>Folio's request line (event built with shared values, formatted by <see cref="JsonLogFormatter"/>).</summary>
    [Benchmark(Baseline = true)]
    public void FolioRequestLine() => _folio.Write(_context, "GET", "/databases/shop/docs", 200, 0.4213);

    /// <summary>Serilog.AspNetCore's middleware and <see cref="CompactJsonFormatter"/>, the packages' own pairing.</summary>
    [Benchmark]
    public Task AspNetCoreRequestLogging_CompactJson() => _aspNetCore(_context);

    /// <summary>Serilog.AspNetCore's middleware with Folio's formatter: the middleware's share alone.</summary>
    [Benchmark]
    public Task AspNetCoreRequestLogging_FolioFormatter() => _aspNetCoreFolioFormat(_context);

    /// <summary>Folio's formatter on the request line's event.</summary>
    [Benchmark]
    public void Format_Folio() => Format(_folioFormatter);

    /// <summary>Serilog's own JSON formatter with the message rendered (the shape Folio's writes).</summary>
    [Benchmark]
    public void Format_SerilogJson() => Format(_serilogJson);

    /// <summary>Serilog.Formatting.Compact's compact formatter (template only, no rendered message).</summary>
    [Benchmark]
    public void Format_Compact() => Format(_compact);

    /// <summary>Serilog.Formatting.Compact's formatter with the message rendered.</summary>
    [Benchmark]
    public void Format_RenderedCompact() => Format(_renderedCompact);

    private void Format(ITextFormatter formatter)
    {
        formatter.Format(_event, _output);
        _output.Write('\n');
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
