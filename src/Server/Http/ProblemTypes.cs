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

    /// <summary>No database has the name in the path or query.</summary>
    public const string DatabaseNotFound = "urn:folio:problem:database-not-found";

    /// <summary>A database of that name (in any casing) already exists.</summary>
    public const string DatabaseExists = "urn:folio:problem:database-exists";

    /// <summary>The database's lock mode refuses its deletion.</summary>
    public const string DatabaseLocked = "urn:folio:problem:database-locked";

    /// <summary>The one document asked for does not exist.</summary>
    public const string DocumentNotFound = "urn:folio:problem:document-not-found";

    /// <summary>The one compare-exchange key asked for has no entry.</summary>
    public const string CompareExchangeNotFound = "urn:folio:problem:compare-exchange-not-found";

    /// <summary>
    /// A cluster-wide batch found a compare-exchange entry or a document's atomic guard changed since the writer read it;
    /// nothing of the batch was written.
    /// </summary>
    public const string ClusterTransactionConflict = "urn:folio:problem:cluster-transaction-conflict";

    /// <summary>A document is not one JSON object within the limits, or is not valid UTF-8.</summary>
    public const string InvalidDocument = "urn:folio:problem:invalid-document";

    /// <summary>A document id is empty, too long or holds control characters.</summary>
    public const string InvalidDocumentId = "urn:folio:problem:invalid-document-id";

    /// <summary>A query-string parameter or request field is missing or out of range.</summary>
    public const string InvalidParameter = "urn:folio:problem:invalid-parameter";

    /// <summary>An <c>If-Match</c> or command change vector does not match the stored document; nothing was written.</summary>
    public const string ConcurrencyConflict = "urn:folio:problem:concurrency-conflict";

    /// <summary>The database's storage failed a write or sync and refuses writes until it is reopened.</summary>
    public const string StorageFailed = "urn:folio:problem:storage-failed";

    /// <summary>The disk is full.</summary>
    public const string InsufficientStorage = "urn:folio:problem:insufficient-storage";

    /// <summary>The database or index the request used was deleted, replaced or shut down while it ran; a retry finds what replaced it.</summary>
    public const string Closed = "urn:folio:problem:closed";

    /// <summary>A database's files are locked by another process (a server still stopping, or a second one on the same data directory); a retry may find them free.</summary>
    public const string FilesInUse = "urn:folio:problem:files-in-use";

    /// <summary>The server failed; its log holds the details under the request's trace id.</summary>
    public const string InternalError = "urn:folio:problem:internal-error";

    /// <summary>A query that does not parse or cannot run.</summary>
    public const string InvalidQuery = "urn:folio:problem:invalid-query";

    /// <summary>A query or request names an index that does not exist.</summary>
    public const string IndexNotFound = "urn:folio:problem:index-not-found";

    /// <summary>An index definition that cannot be used.</summary>
    public const string InvalidIndexDefinition = "urn:folio:problem:invalid-index-definition";

    /// <summary>Indexes did not catch up with a write within the time the request allowed.</summary>
    public const string IndexesTimeout = "urn:folio:problem:indexes-timeout";

    /// <summary>The studio has no file at the path asked for.</summary>
    public const string StudioFileNotFound = "urn:folio:problem:studio-file-not-found";

    /// <summary>A request names a subscription that does not exist.</summary>
    public const string SubscriptionNotFound = "urn:folio:problem:subscription-not-found";

    /// <summary>A subscription with the name already exists.</summary>
    public const string SubscriptionExists = "urn:folio:problem:subscription-exists";

    /// <summary>A subscription's name or start is unusable.</summary>
    public const string InvalidSubscription = "urn:folio:problem:invalid-subscription";

    /// <summary>The server is up but not ready: a database refuses writes after a failed write or sync.</summary>
    public const string NotReady = "urn:folio:problem:not-ready";

    /// <summary>A line of an import is neither a document with an id nor an index definition.</summary>
    public const string InvalidImport = "urn:folio:problem:invalid-import";

    /// <summary>The route needs credentials and the request carries none, or none that are valid.</summary>
    public const string Unauthorized = "urn:folio:problem:unauthorized";

    /// <summary>The credentials are valid but their clearance does not cover the route or database.</summary>
    public const string Forbidden = "urn:folio:problem:forbidden";

    /// <summary>The client's address failed to authenticate too often this minute.</summary>
    public const string TooManyAttempts = "urn:folio:problem:too-many-attempts";

    /// <summary>An API key or certificate of that name (or a certificate of that thumbprint) is registered.</summary>
    public const string CredentialExists = "urn:folio:problem:credential-exists";

    /// <summary>No API key or certificate has the name.</summary>
    public const string CredentialNotFound = "urn:folio:problem:credential-not-found";

    /// <summary>A backup directory cannot be restored (missing, damaged, truncated, foreign) or written to as asked.</summary>
    public const string InvalidBackup = "urn:folio:problem:invalid-backup";

    /// <summary>A script (a JavaScript projection or patch) does not parse or threw; the detail names its line and column.</summary>
    public const string ScriptError = "urn:folio:problem:script-error";

    /// <summary>A request names a tracked operation (patch or delete by query) the database does not have.</summary>
    public const string OperationNotFound = "urn:folio:problem:operation-not-found";

    /// <summary>A query ran past its time budget (<c>Queries:Timeout</c>, or the request's <c>timeout</c>) and was stopped; nothing was written.</summary>
    public const string QueryTimeout = "urn:folio:problem:query-timeout";

    /// <summary>A query allocated past its memory limit (<c>Queries:MaxMemory</c>) and was stopped; nothing was written.</summary>
    public const string QueryMemoryLimit = "urn:folio:problem:query-memory-limit";

    /// <summary>A script ran past one of its limits (time, statements, memory, recursion) and was stopped; nothing was written.</summary>
    public const string ScriptLimitExceeded = "urn:folio:problem:script-limit-exceeded";

    /// <summary>A compaction of the database is already running.</summary>
    public const string CompactionInProgress = "urn:folio:problem:compaction-in-progress";
}
