namespace Folio.Server.Tests.Histories;

/// <summary>What a recorded operation asked the server to do.</summary>
public enum OperationKind
{
    /// <summary><c>GET docs?id=</c> of one document.</summary>
    Read,

    /// <summary><c>GET docs?id=a&amp;id=b…</c>: several documents from one snapshot.</summary>
    MultiRead,

    /// <summary>A query waiting for non-stale results: every document it answers comes from one snapshot.</summary>
    Query,

    /// <summary>A <c>PUT docs?id=</c>, conditional (<c>If-Match</c>) when its write names an expected value.</summary>
    Write,

    /// <summary>A <c>bulk_docs</c> batch: its writes commit together or not at all.</summary>
    Batch,

    /// <summary>The read of every key once the last restart is over and no client runs: what survived.</summary>
    FinalRead,
}
