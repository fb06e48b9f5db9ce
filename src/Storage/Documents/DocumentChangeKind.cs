namespace Folio.Storage.Documents;

/// <summary>What happened to a document at an etag.</summary>
public enum DocumentChangeKind
{
    /// <summary>A version of the document was stored.</summary>
    Put,

    /// <summary>The document was deleted, or left the collection named with the change for another one.</summary>
    Delete,
}
