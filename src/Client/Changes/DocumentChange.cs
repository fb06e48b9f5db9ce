namespace Folio.Client.Changes;

/// <summary>A document stored or deleted, as the changes feed reports it.</summary>
public sealed class DocumentChange
{
    /// <summary>The change's etag: resume after it with <c>since</c>.</summary>
    public long Etag { get; set; }

    /// <summary>The document's id (lower-cased for a delete).</summary>
    public string Id { get; set; } = "";

    /// <summary>The document's collection.</summary>
    public string? Collection { get; set; }

    /// <summary><c>Put</c> or <c>Delete</c>.</summary>
    public string ChangeType { get; set; } = "";

    /// <summary>The change vector of the version stored.</summary>
    public string? ChangeVector { get; set; }
}
