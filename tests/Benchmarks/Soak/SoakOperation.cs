namespace Folio.Benchmarks.Soak;

/// <summary>The kinds of work the soak times, one latency series each.</summary>
public enum SoakOperation
{
    /// <summary>GET of a document by id.</summary>
    Get,

    /// <summary>PUT of a document.</summary>
    Put,

    /// <summary>DELETE of a document.</summary>
    Delete,

    /// <summary>A query on the static index.</summary>
    StaticQuery,

    /// <summary>A query that an auto index answers.</summary>
    AutoQuery,

    /// <summary>A query on the map/reduce index.</summary>
    MapReduceQuery,

    /// <summary>A bulk insert of a batch of documents, from start to the server's answer.</summary>
    BulkInsert,

    /// <summary>A write and a read on a tenant database, which may have been unloaded since its last use.</summary>
    Tenant,

    /// <summary>A reset of the static index, which rebuilds it while the rest goes on.</summary>
    IndexReset,
}
