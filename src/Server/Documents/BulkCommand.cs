using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary>One command of a <c>bulk_docs</c> batch: a write the storage runs as it is, or a patch that becomes one.</summary>
/// <param name="Write">The PUT or DELETE, or null for a patch.</param>
/// <param name="Patch">The patch, or null for a write.</param>
public sealed record BulkCommand(DocumentCommand? Write, BatchPatch? Patch)
{
    /// <summary>The document the command is about.</summary>
    public string Id => Write?.Id ?? Patch!.Id;
}
