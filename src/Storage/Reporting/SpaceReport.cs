namespace Folio.Storage.Reporting;

/// <summary>How an environment's data file is used, tree by tree, in one snapshot.</summary>
/// <param name="PageSize">Bytes per page.</param>
/// <param name="DataFilePages">Pages the data file holds.</param>
/// <param name="AllocatedPages">Pages below the high-water mark.</param>
/// <param name="FreePages">Pages below the high-water mark free for reuse.</param>
/// <param name="Trees">Every named tree, by name (the root tree first as <c>(root)</c>).</param>
public sealed record SpaceReport(int PageSize, long DataFilePages, long AllocatedPages, long FreePages, IReadOnlyList<TreeSpace> Trees);
