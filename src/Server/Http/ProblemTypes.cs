namespace Folio.Server.Http;

/// <summary>The <c>type</c> URIs of Folio's problem+json answers, so clients can switch on them rather than on titles.</summary>
public static class ProblemTypes
{
    /// <summary>No more specific type applies; the status says it all (RFC 9457 default).</summary>
    public const string Generic = "about:blank";

    /// <summary>No route matches the request path.</summary>
    public const string RouteNotFound = "urn:folio:problem:route-not-found";

    /// <summary>The path is known but not for this method.</summary>
    public const string MethodNotAllowed = "urn:folio:problem:method-not-allowed";

    /// <summary>The request body is not well-formed JSON or nests too deep.</summary>
    public const string MalformedJson = "urn:folio:problem:malformed-json";

    /// <summary>The request was rejected by the HTTP layer (bad framing, bad headers).</summary>
    public const string BadRequest = "urn:folio:problem:bad-request";

    /// <summary>The request body or a document is larger than allowed.</summary>
    public const string TooLarge = "urn:folio:problem:too-large";

    /// <summary>The database name breaks the naming rules.</summary>
    public const string InvalidDatabaseName = "urn:folio:problem:invalid-database-name";

    /// <summary>The server failed; its log holds the details under the request's trace id.</summary>
    public const string InternalError = "urn:folio:problem:internal-error";
}
