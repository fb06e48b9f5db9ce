namespace Folio.Storage.Documents;

/// <summary>A compare-exchange write of a cluster-wide batch.</summary>
/// <param name="Type">Put or delete.</param>
/// <param name="Key">The entry's key.</param>
/// <param name="ExpectedIndex">The index the writer read (0: the entry must not exist yet).</param>
/// <param name="Json">The JSON object to store; null for a delete.</param>
public sealed record CompareExchangeCommand(CompareExchangeCommandType Type, string Key, long ExpectedIndex, byte[]? Json);

/// <summary>The kind of a <see cref="CompareExchangeCommand"/>.</summary>
public enum CompareExchangeCommandType
{
    /// <summary>Create or replace the entry.</summary>
    Put,

    /// <summary>Remove the entry.</summary>
    Delete,
}
