namespace Folio.Indexing.Querying.Suggestions;

/// <summary>How a suggestion measures a term's similarity to the word asked about (<see cref="StringSimilarity"/>).</summary>
public enum SuggestionDistance
{
    /// <summary>Edit distance: one minus the edits over the longer length.</summary>
    Levenshtein,

    /// <summary>Jaro-Winkler: characters in common near the same place, a bonus for a shared start.</summary>
    JaroWinkler,

    /// <summary>Kondrak's n-gram distance over bigrams: edits of overlapping two-character windows.</summary>
    NGram,
}
