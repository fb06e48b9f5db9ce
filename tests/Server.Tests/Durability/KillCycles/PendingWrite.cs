namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>
/// A write sent and not (yet) answered. After a kill it may or may not have happened; a batch (bulk_docs) all or
/// nothing; a conditional write with a stale change vector never.
/// </summary>
/// <param name="Kind">put, conditional, delete, bulk_docs or bulk_insert.</param>
/// <param name="Atomic">Whether its changes happen together or not at all.</param>
/// <param name="MustNotApply">A write the server must refuse.</param>
/// <param name="Changes">Each document it writes and the state it gives it (null: deleted).</param>
internal sealed record PendingWrite(string Kind, bool Atomic, bool MustNotApply, (KeyModel Key, ItemVersion? Version)[] Changes);
