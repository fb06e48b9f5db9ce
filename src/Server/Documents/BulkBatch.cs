namespace Folio.Server.Documents;

/// <summary>A parsed <c>bulk_docs</c> body.</summary>
/// <param name="Commands">The commands in order.</param>
/// <param name="ClusterWide">Whether the client asked for a cluster-wide transaction (<c>"TransactionMode":"ClusterWide"</c>).</param>
public sealed record BulkBatch(List<BulkCommand> Commands, bool ClusterWide);
