namespace Folio.Storage.Documents;

/// <summary>
/// One change a commit made: the document <paramref name="Id"/> was stored in, or deleted from (or moved
/// out of), <paramref name="Collection"/> at <paramref name="Etag"/>.
/// </summary>
public readonly record struct DocumentChange(long Etag, string Id, string Collection, DocumentChangeKind Kind);
