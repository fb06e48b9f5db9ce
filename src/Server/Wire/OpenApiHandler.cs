using System.Reflection;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Wire;

/// <summary>
/// Serves Folio's wire contract at <c>GET /openapi/v1.json</c>: the OpenAPI 3.1 document generated from the route
/// declarations (<see cref="OpenApiDocument"/>) with the descriptions written by hand in <c>Wire/openapi.json</c> and
/// embedded in this assembly, so the document always ships with the handlers it describes. The tests in
/// <c>tests/Server.Tests/Wire</c> hold the descriptions and the handlers in step.
/// </summary>
public sealed class OpenApiHandler(OpenApiDocument document)
{
    /// <summary>The manifest name of the embedded descriptions.</summary>
    public const string ResourceName = "Folio.Server.Wire.openapi.json";

    // Read once: the descriptions cannot change while the process runs.
    private static readonly ReadOnlyMemory<byte> s_descriptions = Load();

    /// <summary>The hand-written document's UTF-8 bytes: every operation's text, bodies and answers.</summary>
    public static ReadOnlyMemory<byte> Descriptions => s_descriptions;

    /// <summary>Answers 200 with the generated document as <c>application/json</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the body is written.</returns>
    [FolioRoute("GET", "/openapi/v1.json", Access = RouteAccess.Public)]
    public ValueTask Get(FolioRequest request)
    {
        ReadOnlyMemory<byte> utf8 = document.Utf8;
        HttpResponse response = request.Response;
        response.ContentType = JsonWriters.ContentType;
        response.ContentLength = utf8.Length;
        return response.Body.WriteAsync(utf8, request.Aborted);
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
