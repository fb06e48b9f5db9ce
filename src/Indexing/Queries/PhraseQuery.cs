namespace Folio.Indexing.Queries;

/// <summary>
/// Entries whose full-text field has the analyzed terms of a phrase at consecutive positions (stop-word gaps kept), or,
/// with a <see cref="Slop"/>, near each other as Lucene's sloppy phrases are: each term's position less its place in
/// the phrase, and the spread of those (largest less smallest) at most the slop, so terms out of order cost more than
/// terms apart (<c>"a b"~1</c> matches <c>a x b</c>, <c>b a</c> needs a slop of 2).
/// </summary>
public sealed class PhraseQuery(string field, string phrase, int slop = 0) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The phrase.</summary>
    public string Phrase { get; } = phrase;

    /// <summary>How far the terms may move from their places in the phrase, in positions (0: exactly in order).</summary>
    public int Slop { get; } = slop >= 0 ? slop : throw new ArgumentOutOfRangeException(nameof(slop), "A phrase's slop cannot be negative.");
}
