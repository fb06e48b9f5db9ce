namespace Folio.Server.Operations;

/// <summary>What a tracked operation does.</summary>
public enum OperationKind
{
    /// <summary><c>PATCH /databases/{db}/queries</c>: runs a query's <c>update { … }</c> on every document it selects.</summary>
    PatchByQuery,

    /// <summary><c>DELETE /databases/{db}/queries</c>: deletes every document a query selects.</summary>
    DeleteByQuery,

    /// <summary><c>POST /admin/databases/{db}/compact</c>: rewrites the database's data file without the space deletes freed.</summary>
    Compaction,
}
