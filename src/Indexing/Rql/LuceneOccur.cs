namespace Folio.Indexing.Rql;

/// <summary>How a clause of a Lucene query takes part in its group, as Lucene's classic query parser decides it.</summary>
public enum LuceneOccur
{
    /// <summary>Optional: a group of only such clauses matches any of them.</summary>
    Should,

    /// <summary>Required (<c>+term</c>, or a side of <c>AND</c>).</summary>
    Must,

    /// <summary>Excluded (<c>-term</c>, <c>NOT term</c>, <c>!term</c>).</summary>
    MustNot,
}
