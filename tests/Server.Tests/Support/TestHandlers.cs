using System.Buffers;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace Folio.Server.Tests.Support;

/// <summary>Real handlers registered into a real server, to drive routing and error mapping end to end.</summary>
public sealed class TestHandlers
{
    private readonly TaskCompletionSource _entered = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _release = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes when a request reaches <c>/test/gate</c>.</summary>
    public Task GateEntered => _entered.Task;

    public void OpenGate() => _release.TrySetResult();

    [FolioRoute("GET", "/databases/{db}/echo", Access = RouteAccess.DatabaseRead)]
    [FolioRoute("POST", "/databases/{db}/echo", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Echo(FolioRequest request)
    {
        request.Response.ContentType = "text/plain";
        await request.Response.WriteAsync("db=" + request.Database, request.Aborted);
    }

    [FolioRoute("GET", "/databases/{db}/echo/{name}", Access = RouteAccess.DatabaseRead)]
    public async ValueTask EchoName(FolioRequest request)
    {
        string name = request.RouteValue("name").ToString();
        request.Response.ContentType = "text/plain";
        await request.Response.WriteAsync($"db={request.Database} name={name}", request.Aborted);
    }

    [FolioRoute("GET", "/test/files/{*path}", Access = RouteAccess.Public)]
    public async ValueTask EchoPath(FolioRequest request)
    {
        string path = request.RouteValue("path").ToString();
        request.Response.ContentType = "text/plain";
        await request.Response.WriteAsync("path=" + path, request.Aborted);
    }

    [FolioRoute("GET", "/test/files/special", Access = RouteAccess.Public)]
    public async ValueTask Special(FolioRequest request)
    {
        request.Response.ContentType = "text/plain";
        await request.Response.WriteAsync("special", request.Aborted);
    }

    [FolioRoute("PUT", "/databases/{db}/check", Access = RouteAccess.DatabaseWrite)]
    public ValueTask CheckName(FolioRequest request)
    {
        DatabaseName.Validate(request.DatabaseSpan);
        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    [FolioRoute("POST", "/test/json", Access = RouteAccess.Public)]
    public async ValueTask ParseJson(FolioRequest request)
    {
        ServerOptions options = request.Context.RequestServices.GetRequiredService<ServerOptions>();
        using JsonDocument document = await JsonBody.ParseAsync(request.Request, options, request.Aborted);
        await request.Response.WriteAsync(document.RootElement.ValueKind.ToString(), request.Aborted);
    }

    /// <summary>Answers whether the request runs under a hosting Activity (it should not: hosting diagnostics are off).</summary>
    [FolioRoute("GET", "/test/activity", Access = RouteAccess.Public)]
    public async ValueTask ActivityCheck(FolioRequest request) =>
        await request.Response.WriteAsync(System.Diagnostics.Activity.Current is null ? "none" : "activity", request.Aborted);

    [FolioRoute("GET", "/test/boom", Access = RouteAccess.Public)]
    public ValueTask Boom(FolioRequest request) =>
        throw new InvalidOperationException("secret: Server=db;Password=hunter2");

    /// <summary>Writes part of an answer without flushing it, then fails, as a handler rendering JSON can.</summary>
    [FolioRoute("GET", "/test/boom-midway", Access = RouteAccess.Public)]
    public ValueTask BoomMidway(FolioRequest request)
    {
        request.Response.BodyWriter.Write("{\"Results\":[{\"Name\":"u8);
        throw new ObjectDisposedException("index");
    }

    [FolioRoute("GET", "/test/conflict", Access = RouteAccess.Public)]
    public ValueTask Conflict(FolioRequest request) =>
        throw new FolioHttpException(StatusCodes.Status409Conflict, "Concurrency conflict", "Expected change vector A:1.", "urn:folio:problem:conflict");

    [FolioRoute("GET", "/test/gate", Access = RouteAccess.Public)]
    public async ValueTask Gate(FolioRequest request)
    {
        _entered.TrySetResult();
        await _release.Task;
        await request.Response.WriteAsync("released", CancellationToken.None);
    }
}
