namespace Folio.Indexing.Search;

/// <summary>What a term walk does with a term: take its postings, pass over it, or stop walking.</summary>
internal enum TermVerdict
{
    /// <summary>Add the term's entries.</summary>
    Take,

    /// <summary>Go on to the next term.</summary>
    Skip,

    /// <summary>No later term can match.</summary>
    Stop,

    /// <summary>
    /// The term was shortened (see <see cref="TermEncoding.MaxTermBytes"/>) and its kept bytes
    /// cannot decide: check each of its entries' whole values instead.
    /// </summary>
    Verify,
}
