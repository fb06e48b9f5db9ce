using Folio.Storage.Documents;

namespace Folio.Server.Changes;

/// <summary>
/// One document change a feed reports: <paramref name="Id"/> was stored in (or deleted from)
/// <paramref name="Collection"/> at <paramref name="Etag"/>; <paramref name="Json"/> is the stored document when the
/// feed includes documents. A delete's id is lower-cased (tombstones keep the id as documents are looked up).
/// </summary>
public readonly record struct ChangeRecord(long Etag, string Id, string Collection, DocumentChangeKind Kind, byte[]? Json);
