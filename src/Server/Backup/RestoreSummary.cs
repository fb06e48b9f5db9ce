namespace Folio.Server.Backup;

/// <summary>What a restore put into the new database.</summary>
/// <param name="Name">The new database.</param>
/// <param name="Files">Backup files applied.</param>
/// <param name="Documents">Documents the database holds once restored.</param>
/// <param name="Indexes">Static index definitions put (they build in the background).</param>
/// <param name="Subscriptions">Subscriptions recreated, each at its backed-up position.</param>
/// <param name="Duration">How long the restore took.</param>
public sealed record RestoreSummary(string Name, int Files, long Documents, int Indexes, int Subscriptions, TimeSpan Duration);
