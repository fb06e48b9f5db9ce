namespace Folio.Storage.Documents;

/// <summary>What a stored or deleted document became.</summary>
public sealed record WriteResult(string Id, string Collection, string? ChangeVector, DateTime LastModified, long Etag, bool Deleted);
