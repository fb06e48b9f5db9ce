namespace Folio.Storage.Documents;

/// <summary>One command of a transactional batch: a put (with a prepared document) or a delete.</summary>
public sealed record DocumentCommand(DocumentCommandType Type, string Id, PreparedDocument? Document, string? ExpectedChangeVector);

/// <summary>The kind of a <see cref="DocumentCommand"/>.</summary>
public enum DocumentCommandType
{
    /// <summary>Store a document.</summary>
    Put,

    /// <summary>Delete a document.</summary>
    Delete,
}
