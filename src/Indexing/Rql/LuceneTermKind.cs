namespace Folio.Indexing.Rql;

/// <summary>What a term of a Lucene query asks for.</summary>
public enum LuceneTermKind
{
    /// <summary>A word, analyzed as the field's text is.</summary>
    Word,

    /// <summary>A quoted phrase, its slop in <see cref="LuceneTerm.Number"/>.</summary>
    Phrase,

    /// <summary>A word with <c>*</c> or <c>?</c>.</summary>
    Wildcard,

    /// <summary><c>word~</c>: <see cref="LuceneTerm.Number"/> is edits (a whole number) or a minimum similarity (below 1).</summary>
    Fuzzy,

    /// <summary><c>*:*</c>: every entry.</summary>
    MatchAll,
}
