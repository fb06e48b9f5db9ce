namespace Folio.Indexing.Querying.Suggestions;

/// <summary>Which terms a suggestion may offer besides similar ones (the seeds' <c>SuggestionSortMode</c>).</summary>
public enum SuggestionSortMode
{
    /// <summary>A word the field has is answered as itself; otherwise its similar terms.</summary>
    None,

    /// <summary>Never the word itself: only terms at least as frequent as it (any, when the field lacks the word).</summary>
    Popularity,
}
