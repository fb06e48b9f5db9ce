namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>What the writer that owns a document last had acknowledged for it.</summary>
internal sealed class KeyModel(string id)
{
    public string Id { get; } = id;

    /// <summary>The last acknowledged state; null when the document is absent.</summary>
    public ItemVersion? Acknowledged { get; private set; }

    /// <summary>The change vector of <see cref="Acknowledged"/>, when the answer gave it.</summary>
    public string? ChangeVector { get; private set; }

    /// <summary>An older change vector of the document, to send a conditional write that must be refused.</summary>
    public string? StaleChangeVector { get; private set; }

    public void Set(ItemVersion? version, string? changeVector)
    {
        if (ChangeVector is not null && ChangeVector != changeVector)
            StaleChangeVector = ChangeVector;
        Acknowledged = version;
        ChangeVector = changeVector;
    }
}
