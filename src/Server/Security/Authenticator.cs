using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Folio.Server.Configuration;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Security;

/// <summary>
/// Decides whether a caller may be served a route: finds its credential (an <c>Authorization: ApiKey</c> header, else
/// the TLS client certificate), counts and logs failures per client address, and compares the credential's clearance
/// with what the route declares. HTTP, WebSocket and the TCP listener all go through here. A check allocates
/// nothing when it succeeds.
/// </summary>
public sealed class Authenticator
{
    private readonly CredentialStore _credentials;
    private readonly FailedAttemptLimiter _limiter;
    private readonly ILogger _logger;

    /// <summary>Creates the authenticator.</summary>
    /// <param name="options">Whether authentication is required, and the failure limit.</param>
    /// <param name="credentials">The registered credentials.</param>
    /// <param name="logger">Where failures are logged.</param>
    public Authenticator(ServerOptions options, CredentialStore credentials, ILogger<Authenticator> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        Required = options.Security.RequiresAuthentication;
        _credentials = credentials;
        _limiter = new FailedAttemptLimiter(options.Security.MaxFailedAttemptsPerMinute);
        _logger = logger;
    }

    /// <summary>Whether callers must present credentials; when false every route is open.</summary>
    public bool Required { get; }

    /// <summary>
    /// Checks an HTTP request against a route's access; null when it may be served, else the problem to answer
    /// (401, 403 or 429; see <see cref="WriteRefusalAsync"/>).
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="access">What the route declares.</param>
    /// <param name="database">The route's <c>{db}</c> segment, or empty.</param>
    /// <returns>Null, or the refusal.</returns>
    public Refusal? Check(HttpContext context, RouteAccess access, ReadOnlySpan<char> database)
    {
        if (!Required || access == RouteAccess.Public)
            return null;
        string authorization = context.Request.Headers.Authorization.ToString();
        X509Certificate2? certificate = context.Connection.ClientCertificate;
        if (authorization.Length == 0 && certificate is null)
        {
            return new Refusal(
                StatusCodes.Status401Unauthorized,
                "Credentials required",
                "This route needs credentials: send 'Authorization: ApiKey <key>' or connect with a registered client certificate.",
                ProblemTypes.Unauthorized);
        }

        Credential? credential = Authenticate(authorization, certificate, context.Connection.RemoteIpAddress, "http", out Refusal? refusal);
        if (credential is null)
            return refusal;
        if (credential.Allows(access, database))
            return null;
        return Forbidden(credential, context.Request.Method, access, database);
    }

    /// <summary>The credential of a request to a route that needs none in particular (e.g. to narrow a list), or null when it carries none that is valid.</summary>
    /// <param name="context">The request, already allowed by <see cref="Check"/>.</param>
    /// <returns>The credential; null also when authentication is not required.</returns>
    public Credential? CallerOf(HttpContext context)
    {
        if (!Required)
            return null;
        string authorization = context.Request.Headers.Authorization.ToString();
        if (authorization.Length > 0)
            return TryApiKey(authorization, out _, out _);
        return FindCertificate(context.Connection.ClientCertificate);
    }

    /// <summary>Checks a TCP session's credentials for reading a database (subscriptions).</summary>
    /// <param name="apiKey">The header's <c>ApiKey</c>, or null.</param>
    /// <param name="certificate">The TLS client certificate, or null.</param>
    /// <param name="address">The client's address.</param>
    /// <param name="database">The database the session reads.</param>
    /// <returns>Null when allowed, else the refusal.</returns>
    public Refusal? CheckSession(string? apiKey, X509Certificate2? certificate, IPAddress? address, string database)
    {
        if (!Required)
            return null;
        if (string.IsNullOrEmpty(apiKey) && certificate is null)
            return new Refusal(StatusCodes.Status401Unauthorized, "Unauthorized", "The server requires credentials: put \"ApiKey\" in the header, or connect over TLS with a registered client certificate.", ProblemTypes.Unauthorized);
        Credential? credential = Authenticate(string.IsNullOrEmpty(apiKey) ? string.Empty : ApiKeys.Scheme + " " + apiKey, certificate, address, "tcp", out Refusal? refusal);
        if (credential is null)
            return refusal;
        return credential.Allows(RouteAccess.DatabaseRead, database) ? null : Forbidden(credential, "TCP", RouteAccess.DatabaseRead, database);
    }

    /// <summary>Writes a refusal as problem+json with its <c>WWW-Authenticate</c> or <c>Retry-After</c> header.</summary>
    /// <param name="response">A response that has not started.</param>
    /// <param name="refusal">What <see cref="Check"/> answered.</param>
    /// <param name="cancellationToken">Cancels the flush.</param>
    /// <returns>Completes once written.</returns>
    public static Task WriteRefusalAsync(HttpResponse response, Refusal refusal, CancellationToken cancellationToken)
    {
        if (refusal.Status == StatusCodes.Status401Unauthorized)
            response.Headers.WWWAuthenticate = ApiKeys.Scheme;
        else if (refusal.RetryAfter > TimeSpan.Zero)
            response.Headers.RetryAfter = ((int)Math.Ceiling(refusal.RetryAfter.TotalSeconds)).ToString(System.Globalization.CultureInfo.InvariantCulture);
        return ProblemWriter.WriteAsync(response, new Problem(refusal.Status, refusal.Title, refusal.Detail, refusal.Type), cancellationToken);
    }

    private Credential? Authenticate(string authorization, X509Certificate2? certificate, IPAddress? address, string transport, out Refusal? refusal)
    {
        refusal = null;
        // Keys created or revoked by the command line take effect within a second.
        _credentials.RefreshIfChanged();
        if (_limiter.IsBlocked(address, out TimeSpan retryAfter))
        {
            SecurityLog.Blocked(_logger, address?.ToString() ?? "unknown", retryAfter);
            refusal = new Refusal(StatusCodes.Status429TooManyRequests, "Too many failed attempts", $"Too many failed authentications from this address; try again in {Math.Ceiling(retryAfter.TotalSeconds)} s.", ProblemTypes.TooManyAttempts, retryAfter);
            return null;
        }

        Credential? credential;
        string reason;
        string id;
        if (authorization.Length > 0)
        {
            credential = TryApiKey(authorization, out reason, out id);
        }
        else
        {
            credential = FindCertificate(certificate);
            reason = "the client certificate is not registered";
            id = certificate?.GetCertHashString(HashAlgorithmName.SHA256) ?? "none";
        }

        if (credential is not null)
            return credential;

        int failures = _limiter.RecordFailure(address);
        SecurityLog.Failed(_logger, address?.ToString() ?? "unknown", transport, reason, id, failures);
        refusal = new Refusal(StatusCodes.Status401Unauthorized, "Invalid credentials", $"The credentials were refused: {reason}.", ProblemTypes.Unauthorized);
        return null;
    }

    private Credential? TryApiKey(string authorization, out string reason, out string id)
    {
        ReadOnlySpan<char> header = authorization.AsSpan().Trim();
        id = "none";
        if (!header.StartsWith(ApiKeys.Scheme, StringComparison.OrdinalIgnoreCase) || header.Length <= ApiKeys.Scheme.Length || header[ApiKeys.Scheme.Length] != ' ')
        {
            reason = "the Authorization header's scheme is not ApiKey";
            return null;
        }

        ReadOnlySpan<char> key = header[(ApiKeys.Scheme.Length + 1)..].Trim();
        if (!ApiKeys.TryReadId(key, out ReadOnlySpan<char> keyId))
        {
            reason = "the text is not a Folio API key";
            return null;
        }

        Credential? credential = _credentials.FindKey(keyId);
        if (credential is not null && ApiKeys.Matches(key, credential.KeyHash))
        {
            reason = string.Empty;
            return credential;
        }

        // The id is public (it only names the key), so logging it helps find which key a client holds wrongly.
        id = keyId.ToString();
        reason = credential is null ? "no API key has this id (revoked or never created)" : "the key's secret is wrong";
        return null;
    }

    private Credential? FindCertificate(X509Certificate2? certificate)
    {
        if (certificate is null)
            return null;
        return FindByHash(certificate, HashAlgorithmName.SHA256) ?? FindByHash(certificate, HashAlgorithmName.SHA1);
    }

    private Credential? FindByHash(X509Certificate2 certificate, HashAlgorithmName algorithm)
    {
        Span<byte> hash = stackalloc byte[64];
        Span<char> hex = stackalloc char[128];
        if (!certificate.TryGetCertHash(algorithm, hash, out int length) || !Convert.TryToHexString(hash[..length], hex, out int written))
            return null;
        return _credentials.FindCertificate(hex[..written]);
    }

    private static Refusal Forbidden(Credential credential, string method, RouteAccess access, ReadOnlySpan<char> database)
    {
        string needs = access switch
        {
            RouteAccess.DatabaseRead => $"Read on database '{database}'",
            RouteAccess.DatabaseWrite => $"ReadWrite on database '{database}'",
            _ => "Admin",
        };
        string has = credential.Clearance == Clearance.Admin ? "Admin" : $"{credential.Clearance} on {string.Join(", ", credential.Databases)}";
        return new Refusal(
            StatusCodes.Status403Forbidden,
            "Insufficient clearance",
            $"The {(credential.Kind == CredentialKind.ApiKey ? "API key" : "certificate")} '{credential.Name}' has {has}; this {method} needs {needs}.",
            ProblemTypes.Forbidden);
    }
}
