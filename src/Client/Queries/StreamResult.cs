using Newtonsoft.Json.Linq;

namespace Folio.Client.Queries;

/// <summary>One streamed result: the document (or projection) read as <typeparamref name="T"/>, its id and metadata.</summary>
/// <typeparam name="T">The type the result is read as.</typeparam>
public sealed class StreamResult<T>
{
    internal StreamResult(string? id, string? changeVector, JObject metadata, T document)
    {
        Id = id;
        ChangeVector = changeVector;
        Metadata = metadata;
        Document = document;
    }

    /// <summary>The document's id.</summary>
    public string? Id { get; }

    /// <summary>The stored version's change vector (null for a projection).</summary>
    public string? ChangeVector { get; }

    /// <summary>The result's metadata.</summary>
    public JObject Metadata { get; }

    /// <summary>The result.</summary>
    public T Document { get; }
}
