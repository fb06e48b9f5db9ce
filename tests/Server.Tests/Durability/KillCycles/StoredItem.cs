namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>A document as read back from the server after a restart.</summary>
internal sealed record StoredItem(string Id, string Rev, int Tag, int V, string ChangeVector);
