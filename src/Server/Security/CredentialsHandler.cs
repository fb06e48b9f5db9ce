using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Security;

/// <summary>
/// Registers, lists and revokes API keys (<c>/admin/api-keys</c>) and client certificates (<c>/admin/certificates</c>).
/// A new key is answered once and never again: the server keeps only its hash.
/// </summary>
public sealed class CredentialsHandler
{
    private readonly CredentialStore _credentials;
    private readonly Authenticator _authenticator;
    private readonly ServerOptions _options;
    private readonly ILogger _logger;

    /// <summary>Creates the handler.</summary>
    /// <param name="credentials">The store.</param>
    /// <param name="authenticator">Names the caller in the log.</param>
    /// <param name="options">Body limits.</param>
    /// <param name="logger">Where registrations and revocations are logged.</param>
    public CredentialsHandler(CredentialStore credentials, Authenticator authenticator, ServerOptions options, ILogger<CredentialsHandler> logger)
    {
        _credentials = credentials;
        _authenticator = authenticator;
        _options = options;
        _logger = logger;
    }

    /// <summary><c>POST {"Name","Clearance","Databases"}</c>: 201 with the new key in <c>Key</c>, shown this once.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("POST", "/admin/api-keys", Access = RouteAccess.Admin)]
    public async ValueTask CreateKey(FolioRequest request)
    {
        CredentialRequest asked = await ReadAsync(request, CredentialKind.ApiKey);
        (Credential credential, string key) = Register(request, () => _credentials.CreateKey(asked.Name, asked.Clearance, asked.Databases));
        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, (credential, key), static (w, s) => Write(w, s.credential, s.key), request.Aborted);
    }

    /// <summary><c>GET</c>: <c>{"Results":[{"Name","Id","Clearance","Databases","CreatedAt"}…]}</c>, without secrets.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/admin/api-keys", Access = RouteAccess.Admin)]
    public ValueTask ListKeys(FolioRequest request) => ListAsync(request, CredentialKind.ApiKey);

    /// <summary><c>DELETE ?name=</c>: 204 once revoked; 404 when there is no such key.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when revoked.</returns>
    [FolioRoute("DELETE", "/admin/api-keys", Access = RouteAccess.Admin)]
    public ValueTask RevokeKey(FolioRequest request) => RevokeAsync(request, CredentialKind.ApiKey);

    /// <summary><c>POST {"Name","Clearance","Databases","Thumbprint"|"Certificate"}</c>: 201 with the registered thumbprint.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("POST", "/admin/certificates", Access = RouteAccess.Admin)]
    public async ValueTask AddCertificate(FolioRequest request)
    {
        CredentialRequest asked = await ReadAsync(request, CredentialKind.Certificate);
        (Credential credential, string _) = Register(request, () => (_credentials.AddCertificate(asked.Name, asked.Clearance, asked.Databases, asked.Thumbprint!), string.Empty));
        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, credential, static (w, c) => Write(w, c, null), request.Aborted);
    }

    /// <summary><c>GET</c>: <c>{"Results":[{"Name","Thumbprint","Clearance","Databases","CreatedAt"}…]}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/admin/certificates", Access = RouteAccess.Admin)]
    public ValueTask ListCertificates(FolioRequest request) => ListAsync(request, CredentialKind.Certificate);

    /// <summary><c>DELETE ?name=</c>: 204 once revoked; 404 when there is no such certificate.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when revoked.</returns>
    [FolioRoute("DELETE", "/admin/certificates", Access = RouteAccess.Admin)]
    public ValueTask RevokeCertificate(FolioRequest request) => RevokeAsync(request, CredentialKind.Certificate);

    /// <summary>Writes a credential as the endpoints answer it; <paramref name="key"/> only when just created.</summary>
    /// <param name="writer">The writer.</param>
    /// <param name="credential">The credential.</param>
    /// <param name="key">The new key's text, or null.</param>
    internal static void Write(Utf8JsonWriter writer, Credential credential, string? key)
    {
        writer.WriteStartObject();
        writer.WriteString("Name"u8, credential.Name);
        if (credential.Kind == CredentialKind.ApiKey)
            writer.WriteString("Id"u8, credential.Identifier);
        else
            writer.WriteString("Thumbprint"u8, credential.Identifier);
        if (key is not null)
            writer.WriteString("Key"u8, key);
        writer.WriteString("Clearance"u8, credential.Clearance.ToString());
        writer.WriteStartArray("Databases"u8);
        foreach (string database in credential.Databases)
            writer.WriteStringValue(database);
        writer.WriteEndArray();
        writer.WriteString("CreatedAt"u8, credential.CreatedAt.UtcDateTime);
        writer.WriteEndObject();
    }

    private async ValueTask<CredentialRequest> ReadAsync(FolioRequest request, CredentialKind kind)
    {
        using JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted);
        try
        {
            return CredentialRequest.Read(body.RootElement, kind);
        }
        catch (ArgumentException ex)
        {
            throw QueryParameters.Invalid(ex.Message);
        }
    }

    private (Credential Credential, string Key) Register(FolioRequest request, Func<(Credential, string)> register)
    {
        (Credential Credential, string Key) created;
        try
        {
            created = register();
        }
        catch (InvalidOperationException ex)
        {
            throw new FolioHttpException(StatusCodes.Status409Conflict, "Credential exists", ex.Message, ProblemTypes.CredentialExists);
        }

        Credential credential = created.Credential;
        SecurityLog.Registered(_logger, credential.Kind, credential.Name, credential.Clearance, string.Join(",", credential.Databases), Caller(request));
        return created;
    }

    private async ValueTask ListAsync(FolioRequest request, CredentialKind kind)
    {
        Credential[] listed = _credentials.All.Where(c => c.Kind == kind).ToArray();
        await JsonResponse.WriteAsync(request.Response, listed, static (w, all) =>
        {
            w.WriteStartObject();
            w.WriteStartArray("Results"u8);
            foreach (Credential credential in all)
                Write(w, credential, null);
            w.WriteEndArray();
            w.WriteEndObject();
        }, request.Aborted);
    }

    private ValueTask RevokeAsync(FolioRequest request, CredentialKind kind)
    {
        string name = QueryParameters.Required(request.Request, "name");
        if (!_credentials.Remove(kind, name))
        {
            throw new FolioHttpException(
                StatusCodes.Status404NotFound,
                "Credential not found",
                $"There is no {(kind == CredentialKind.ApiKey ? "API key" : "certificate")} named '{name}'.",
                ProblemTypes.CredentialNotFound);
        }

        SecurityLog.Revoked(_logger, kind, name, Caller(request));
        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    private string Caller(FolioRequest request) =>
        _authenticator.CallerOf(request.Context)?.Name ?? "an unauthenticated loopback caller";
}
