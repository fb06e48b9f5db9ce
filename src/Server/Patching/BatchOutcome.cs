using Folio.Storage.Documents;

namespace Folio.Server.Patching;

/// <summary>What a committed batch did, per command, in command order.</summary>
/// <param name="Results">Each command's write (null for a delete of a missing document or a patch that wrote nothing).</param>
/// <param name="Written">The storage's results for the writes alone.</param>
/// <param name="Statuses">Each patch's status (<see cref="PatchStatus.None"/> for other commands).</param>
/// <param name="ChangeVectors">For a patch that wrote nothing, the version it left.</param>
/// <param name="Documents">For a patch that wrote, the document as stored.</param>
public sealed record BatchOutcome(
    IReadOnlyList<WriteResult?> Results,
    IReadOnlyList<WriteResult?> Written,
    IReadOnlyList<PatchStatus> Statuses,
    IReadOnlyList<string?> ChangeVectors,
    IReadOnlyList<byte[]?> Documents)
{
    /// <summary>The outcome of a batch of PUT and DELETE commands only.</summary>
    public static BatchOutcome ForWrites(IReadOnlyList<WriteResult?> written) =>
        new(written, written, new PatchStatus[written.Count], new string?[written.Count], new byte[]?[written.Count]);
}
