using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary>
/// One command of a <c>bulk_docs</c> batch: a write the storage runs as it is, a patch that becomes one, or (in a
/// cluster-wide batch) a compare-exchange write.
/// </summary>
/// <param name="Write">The PUT or DELETE, or null for a patch or a compare-exchange write.</param>
/// <param name="Patch">The patch, or null for a write.</param>
public sealed record BulkCommand(DocumentCommand? Write, BatchPatch? Patch)
{
    /// <summary>The compare-exchange write (<c>CompareExchangePUT</c>, <c>CompareExchangeDELETE</c>), or null.</summary>
    public CompareExchangeCommand? Exchange { get; init; }

    /// <summary>
    /// The change vector the client loaded the document with (<c>OriginalChangeVector</c>); a cluster-wide batch
    /// checks it instead of <c>ChangeVector</c>, which those clients leave out there.
    /// </summary>
    public string? OriginalChangeVector { get; init; }

    /// <summary>The document (or, for a compare-exchange write, the key) the command is about.</summary>
    public string Id => Write?.Id ?? Patch?.Id ?? Exchange!.Key;
}
