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

/// <summary>A part of a query written in Lucene's classic syntax (<see cref="LuceneSyntax"/>), as <c>lucene()</c> takes one.</summary>
public abstract record LuceneNode;

/// <summary>Clauses in parentheses, or the whole query: each with its <see cref="LuceneOccur"/>.</summary>
public sealed record LuceneGroup(IReadOnlyList<(LuceneOccur Occur, LuceneNode Node)> Clauses) : LuceneNode;

/// <summary>A term of <see cref="Field"/> (null: the field <c>lucene()</c> was called on).</summary>
public sealed record LuceneTerm(string? Field, string Text, LuceneTermKind Kind, double Number) : LuceneNode;

/// <summary><c>[a TO b]</c>, <c>{a TO b}</c> or a mix; a null bound (<c>*</c>) leaves that end open.</summary>
public sealed record LuceneRange(string? Field, string? Lower, bool LowerInclusive, string? Upper, bool UpperInclusive) : LuceneNode;

/// <summary><c>clause^factor</c>.</summary>
public sealed record LuceneBoost(LuceneNode Inner, float Factor) : LuceneNode;
