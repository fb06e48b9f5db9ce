namespace Folio.Client.BulkInsert;

/// <summary>What the server reports when a bulk insert stream is stored.</summary>
public sealed class BulkInsertResult
{
    /// <summary>Documents stored.</summary>
    public long Documents { get; set; }

    /// <summary>Body bytes the stored commands spanned.</summary>
    public long Bytes { get; set; }

    /// <summary>The etag of the last document stored.</summary>
    public long LastEtag { get; set; }

    /// <summary>Transactions the stream was cut into.</summary>
    public long Batches { get; set; }

    /// <summary>How long the server took.</summary>
    public double DurationInMs { get; set; }
}
