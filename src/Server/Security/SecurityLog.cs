namespace Folio.Server.Security;

/// <summary>Authentication's log lines; none holds a secret (a key appears by its public id only).</summary>
internal static partial class SecurityLog
{
    [LoggerMessage(EventId = 1, Level = LogLevel.Warning, Message = "Authentication failed from {ClientAddress} on {Transport}: {Reason} (credential {CredentialId}, {FailureCount} failures this minute)")]
    public static partial void Failed(ILogger logger, string clientAddress, string transport, string reason, string credentialId, int failureCount);

    [LoggerMessage(EventId = 2, Level = LogLevel.Warning, Message = "Client {ClientAddress} refused for too many failed authentications; it may try again in {RetryAfter}")]
    public static partial void Blocked(ILogger logger, string clientAddress, TimeSpan retryAfter);

    [LoggerMessage(EventId = 3, Level = LogLevel.Information, Message = "Authentication required; {KeyCount} API keys and {CertificateCount} client certificates registered, TLS {Tls}")]
    public static partial void Configured(ILogger logger, int keyCount, int certificateCount, string tls);

    [LoggerMessage(EventId = 4, Level = LogLevel.Warning, Message = "Authentication required but no credential is registered: create the first admin key with `Folio.Server api-keys create --Name=admin --Clearance=Admin` on this data directory")]
    public static partial void NoCredentials(ILogger logger);

    [LoggerMessage(EventId = 5, Level = LogLevel.Information, Message = "{Kind} {CredentialName} registered with clearance {Clearance} on {Databases} by {Caller}")]
    public static partial void Registered(ILogger logger, CredentialKind kind, string credentialName, Clearance clearance, string databases, string caller);

    [LoggerMessage(EventId = 6, Level = LogLevel.Information, Message = "{Kind} {CredentialName} revoked by {Caller}")]
    public static partial void Revoked(ILogger logger, CredentialKind kind, string credentialName, string caller);

    [LoggerMessage(EventId = 7, Level = LogLevel.Warning, Message = "Folio listens beyond loopback without authentication (Security:AllowUnsecuredNetworkAccess): anyone who reaches {ServerUrl} can read and delete every database")]
    public static partial void Unsecured(ILogger logger, string serverUrl);
}
