using Newtonsoft.Json.Linq;

namespace Folio.Client.Session;

/// <summary>What a session knows of one entity it tracks.</summary>
internal sealed class DocumentInfo
{
    public DocumentInfo(object entity, string? id, string collection)
    {
        Entity = entity;
        Id = id;
        Collection = collection;
    }

    public object Entity { get; }

    /// <summary>The id; null for a new entity whose id the server will make.</summary>
    public string? Id { get; set; }

    public string Collection { get; set; }

    /// <summary>The stored version's change vector; null for a new entity.</summary>
    public string? ChangeVector { get; set; }

    /// <summary>The change vector a write must find (optimistic concurrency), when one was asked for.</summary>
    public string? ExpectedChangeVector { get; set; }

    /// <summary>The metadata as last read or written; the application may add its own properties.</summary>
    public JObject Metadata { get; set; } = new();

    /// <summary>The document as the server answered it (without metadata), for an entity loaded and not saved since. Change tracking compares with it.</summary>
    public JObject? Snapshot { get; set; }

    /// <summary>The document's text as the server answered it (with metadata), until <see cref="Snapshot"/> is parsed from it.</summary>
    public string? ServerText { get; set; }

    /// <summary>The entity's JSON as this session last saved it; compared as text, since the serializer writes an unchanged entity alike.</summary>
    public string? SnapshotText { get; set; }

    /// <summary>
    /// The metadata as it was when the application first asked for it (null until then: metadata nobody was handed
    /// cannot have changed), to see the changes it made.
    /// </summary>
    public JObject? MetadataSnapshot { get; set; }

    /// <summary>For a new entity whose id the server makes: the prefix it makes it from (<c>orders/</c>).</summary>
    public string? ServerIdPrefix { get; set; }

    public bool IsNew => Snapshot is null && SnapshotText is null && ServerText is null;
}
