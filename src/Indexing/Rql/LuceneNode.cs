namespace Folio.Indexing.Rql;

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
