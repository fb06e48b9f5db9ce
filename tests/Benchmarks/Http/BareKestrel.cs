using Folio.Server.Configuration;
using Folio.Server.Hosting;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Folio.Benchmarks.Http;

/// <summary>
/// The ceiling http-load compares Folio with: a minimal-API app on Kestrel with Folio's Kestrel
/// settings that answers every <c>GET /doc</c> with the same fixed body, and every <c>PUT /doc</c> by
/// reading the body and answering 201 with a small JSON of Folio's PUT shape, doing no other work (no
/// parsing, no storage, no sync). Runs as its own process (<c>http-load --serve-bare PORT BODY_FILE</c>),
/// like Folio.
/// </summary>
public static class BareKestrel
{
    /// <summary>The switch that makes http-load serve instead of measure.</summary>
    public const string ServeSwitch = "--serve-bare";

    /// <summary>Serves until SIGTERM.</summary>
    public static int Serve(int port, string bodyFile)
    {
        byte[] body = File.ReadAllBytes(bodyFile);
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel => KestrelSetup.ApplyLimits(kestrel, new ServerOptions()));
        builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
        WebApplication app = builder.Build();
        app.MapGet("/doc", () => Results.Bytes(body, "application/json; charset=utf-8"));
        app.MapPut("/doc", ReadAndCreated);
        app.MapGet("/healthz", () => "ok");
        app.Run();
        return 0;
    }

    private static async Task ReadAndCreated(HttpContext context)
    {
        var reader = context.Request.BodyReader;
        while (true)
        {
            var read = await reader.ReadAsync(context.RequestAborted);
            reader.AdvanceTo(read.Buffer.End);
            if (read.IsCompleted)
                break;
        }

        context.Response.StatusCode = StatusCodes.Status201Created;
        context.Response.ContentType = "application/json; charset=utf-8";
        context.Response.Headers.ETag = CreatedETag;
        await context.Response.Body.WriteAsync(CreatedBody, context.RequestAborted);
    }

    private static readonly Microsoft.Extensions.Primitives.StringValues CreatedETag = "\"A:1-AAAAAAAAAAAAAAAAAAAAAA\"";

    private static readonly byte[] CreatedBody = "{\"Id\":\"docs/1\",\"ChangeVector\":\"A:1-AAAAAAAAAAAAAAAAAAAAAA\"}"u8.ToArray();

    /// <summary>Starts the bare server as a child process with server GC, as Folio.Server runs.</summary>
    public static Task<HttpServerProcess> StartAsync(string bodyFile, string logFile) =>
        HttpServerProcess.StartAsync(
            "dotnet",
            port => [Path.Combine(AppContext.BaseDirectory, "Folio.Benchmarks.dll"), HttpLoadCommand.Command, ServeSwitch, port.ToString(System.Globalization.CultureInfo.InvariantCulture), bodyFile],
            "/healthz",
            logFile,
            new Dictionary<string, string> { ["DOTNET_gcServer"] = "1" });
}
