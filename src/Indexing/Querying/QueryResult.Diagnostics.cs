namespace Folio.Indexing.Querying;

/// <summary>What <c>include timings()</c> and <c>include explanations()</c> add to an answer.</summary>
public sealed partial class QueryResult
{
    /// <summary>How long each stage of the query took, when it asked (<c>include timings()</c>); null otherwise.</summary>
    public QueryTimings? Timings { get; set; }

    /// <summary>
    /// Each result's score explained, by document id (<c>include explanations()</c>), when the query asked; null
    /// otherwise. A result read without an index (a collection read directly) has none.
    /// </summary>
    public Dictionary<string, string[]>? Explanations { get; set; }
}
