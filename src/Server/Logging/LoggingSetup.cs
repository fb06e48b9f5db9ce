using Folio.Server.Configuration;
using Microsoft.Extensions.Configuration;
using Serilog;
using Serilog.Core;
using Serilog.Formatting.Compact;
using Serilog.Settings.Configuration;

namespace Folio.Server.Logging;

/// <summary>
/// Builds Folio's Serilog pipeline. Serilog is plugged into <c>ILoggingBuilder</c> through Serilog.Extensions.Logging;
/// the request lines come from Serilog.AspNetCore's middleware (<see cref="RequestLogging"/>).
/// </summary>
internal static class LoggingSetup
{
    /// <summary>Name pattern of the rolling log files; Serilog inserts the date before the extension.</summary>
    public const string LogFilePattern = "folio-.log";

    /// <summary>How many events may wait for the writer thread; beyond it new events are dropped rather than block requests.</summary>
    public const int QueuedEventsLimit = 100_000;

    /// <summary>
    /// Creates the root logger: levels from the <c>Serilog</c> configuration section, human-readable lines
    /// on the console and compact JSON events (CLEF: every property kept) in a daily, size-capped file under the
    /// data directory, both written off the caller's thread by Serilog.Sinks.Async.
    /// </summary>
    /// <param name="configuration">Configuration with an optional <c>Serilog</c> section.</param>
    /// <param name="options">Supplies the log directory and whether to log to the console.</param>
    /// <param name="extraSink">An embedder's additional sink (tests capture events through it), or null.</param>
    /// <returns>The logger; its owner disposes it to flush the file.</returns>
    public static Logger CreateLogger(IConfiguration configuration, ServerOptions options, ILogEventSink? extraSink)
    {
        // Naming the sink assemblies spares Serilog.Settings.Configuration a scan of every loaded
        // assembly, which matters because tests start a server many times.
        var readerOptions = new ConfigurationReaderOptions(
            typeof(ConsoleLoggerConfigurationExtensions).Assembly,
            typeof(FileLoggerConfigurationExtensions).Assembly);

        // No Enrich.FromLogContext: Folio pushes no LogContext properties, and with it every event, the
        // request line included, would also walk the request's logging scopes into a new dictionary.
        // Events logged through Microsoft.Extensions.Logging still carry their scopes (the provider adds them).
        LoggerConfiguration config = new LoggerConfiguration()
            .MinimumLevel.Information()
            .ReadFrom.Configuration(configuration, readerOptions);

        // Console and file are written by Serilog.Sinks.Async's writer thread; the file is buffered and flushed every
        // second, so a request only queues its line. Measured against Folio's own writer thread, which woke every
        // 10 ms, it gave one client's GET a tenth of the p99 and 64 clients more throughput (docs/benchmarks.md).
        config.WriteTo.Async(
            writers =>
            {
                if (options.LogToConsole)
                {
                    writers.Console(
                        outputTemplate: "[{Timestamp:HH:mm:ss.fff} {Level:u3}] {Message:lj}{NewLine}{Exception}",
                        formatProvider: System.Globalization.CultureInfo.InvariantCulture);
                }

                writers.File(
                    new CompactJsonFormatter(),
                    Path.Combine(options.LogsDirectory, LogFilePattern),
                    fileSizeLimitBytes: 64L * 1024 * 1024,
                    rollOnFileSizeLimit: true,
                    rollingInterval: RollingInterval.Day,
                    retainedFileCountLimit: 14,
                    buffered: true,
                    flushToDiskInterval: TimeSpan.FromSeconds(1));
            },
            bufferSize: QueuedEventsLimit);

        if (extraSink is not null)
            config.WriteTo.Sink(extraSink);

        return config.CreateLogger();
    }
}
