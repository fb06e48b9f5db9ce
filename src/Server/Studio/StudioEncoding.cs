namespace Folio.Server.Studio;

/// <summary>The content codings the studio's files are stored in.</summary>
public enum StudioEncoding
{
    /// <summary>Uncompressed.</summary>
    Identity,

    /// <summary>gzip (RFC 1952).</summary>
    Gzip,

    /// <summary>Brotli (RFC 7932).</summary>
    Brotli,
}
