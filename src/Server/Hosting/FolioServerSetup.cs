using Serilog.Core;

namespace Folio.Server.Hosting;

/// <summary>
/// What a process embedding Folio adds beyond configuration: the tests use it to register their own
/// handlers and to watch log events as they happen.
/// </summary>
public sealed class FolioServerSetup
{
    /// <summary>Handler objects whose <see cref="Routing.FolioRouteAttribute"/> routes are served besides the built-in ones.</summary>
    public IList<object> AdditionalHandlers { get; } = new List<object>();

    /// <summary>A Serilog sink that receives every log event besides the console and file, or null.</summary>
    public ILogEventSink? LogSink { get; set; }
}
