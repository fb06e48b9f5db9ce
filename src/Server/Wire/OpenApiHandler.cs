using System.Reflection;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Wire;

/// <summary>
/// Serves Folio's wire contract at <c>GET /openapi/v1.json</c>: the OpenAPI 3.1 document written by hand
/// in <c>Wire/openapi.json</c> and embedded in this assembly, so the document always ships with the
/// handlers it describes. The tests in <c>tests/Server.Tests/Wire</c> hold the two in step.
/// </summary>
public sealed class OpenApiHandler
{
    /// <summary>The manifest name of the embedded document.</summary>
    public const string ResourceName = "Folio.Server.Wire.openapi.json";

    // Read once: the document cannot change while the process runs, and every request then only copies it.
    private static readonly ReadOnlyMemory<byte> s_document = Load();

    /// <summary>The document's UTF-8 bytes, exactly as served.</summary>
    public static ReadOnlyMemory<byte> Document => s_document;

    /// <summary>Answers 200 with the document as <c>application/json</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the body is written.</returns>
    [FolioRoute("GET", "/openapi/v1.json", Access = RouteAccess.Public)]
    public ValueTask Get(FolioRequest request)
    {
        HttpResponse response = request.Response;
        response.ContentType = JsonWriters.ContentType;
        response.ContentLength = s_document.Length;
        return response.Body.WriteAsync(s_document, request.Aborted);
    }

    private static byte[] Load()
    {
        using Stream stream = Assembly.GetExecutingAssembly().GetManifestResourceStream(ResourceName)
            ?? throw new InvalidOperationException($"The assembly does not embed {ResourceName}; check the EmbeddedResource item in Folio.Server.csproj.");
        using var copy = new MemoryStream((int)stream.Length);
        stream.CopyTo(copy);
        return copy.ToArray();
    }
}
