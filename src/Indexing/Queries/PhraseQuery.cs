namespace Folio.Indexing.Queries;

/// <summary>Entries whose full-text field has the analyzed terms of a phrase at consecutive positions (stop-word gaps kept).</summary>
public sealed class PhraseQuery(string field, string phrase) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The phrase.</summary>
    public string Phrase { get; } = phrase;
}
