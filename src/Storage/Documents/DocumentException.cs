namespace Folio.Storage.Documents;

/// <summary>A document the store refuses: not a JSON object, too deep, too large, a bad id.</summary>
public sealed class DocumentValidationException(string message, Exception? inner = null) : StorageException(message, inner);

/// <summary>A write whose expected change vector does not match the stored one.</summary>
public sealed class ConcurrencyException(string message) : StorageException(message)
{
    /// <summary>The id the conflict is on.</summary>
    public string? Id { get; init; }

    /// <summary>The change vector the caller expected.</summary>
    public string? Expected { get; init; }

    /// <summary>The change vector stored now (null when the document does not exist).</summary>
    public string? Actual { get; init; }
}
