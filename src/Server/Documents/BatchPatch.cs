using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary>
/// A <c>PATCH</c> command of a batch, as the seeds' clients send it: the script (<c>{"Script","Values"}</c>) for an
/// existing document and, for a missing one, either a script run on an empty document or a document to store as it is.
/// </summary>
/// <param name="Id">The document to patch.</param>
/// <param name="ChangeVector">The version the client requires, or null for whichever version is current.</param>
/// <param name="Patch">The script object's JSON.</param>
/// <param name="PatchIfMissing">The script object's JSON run on <c>{}</c> when the document does not exist, or null.</param>
/// <param name="CreateIfMissing">The document stored when the document does not exist, or null.</param>
/// <param name="ReturnDocument">Whether the answer carries the patched document.</param>
public sealed record BatchPatch(string Id, string? ChangeVector, byte[] Patch, byte[]? PatchIfMissing, PreparedDocument? CreateIfMissing, bool ReturnDocument);
