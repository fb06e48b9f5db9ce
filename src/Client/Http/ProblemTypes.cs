namespace Folio.Client.Http;

/// <summary>The problem types of the server's answers the client tells apart.</summary>
internal static class ProblemTypes
{
    public const string ConcurrencyConflict = "urn:folio:problem:concurrency-conflict";
    public const string IndexesTimeout = "urn:folio:problem:indexes-timeout";
    public const string InvalidQuery = "urn:folio:problem:invalid-query";
    public const string IndexNotFound = "urn:folio:problem:index-not-found";
    public const string DocumentNotFound = "urn:folio:problem:document-not-found";
    public const string DatabaseExists = "urn:folio:problem:database-exists";
    public const string SubscriptionNotFound = "urn:folio:problem:subscription-not-found";
}
