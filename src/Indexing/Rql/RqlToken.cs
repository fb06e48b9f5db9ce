using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>
/// A token of a query: its kind, its text (unquoted for strings, as written otherwise) and where it starts;
/// identifiers and paths also carry the names they are made of.
/// </summary>
internal readonly record struct RqlToken(RqlTokenKind Kind, string Text, int Position, PathSegment[]? Segments = null)
{
    public bool IsKeyword(string keyword) => Kind == RqlTokenKind.Identifier && string.Equals(Text, keyword, StringComparison.OrdinalIgnoreCase);

    public string Describe() => Kind switch
    {
        RqlTokenKind.End => "the end of the query",
        RqlTokenKind.String => $"the string '{Text}'",
        RqlTokenKind.Path => $"the path {Text}",
        _ => $"'{Text}'",
    };
}

/// <summary>The kinds of query tokens.</summary>
internal enum RqlTokenKind
{
    /// <summary>Bare names joined by '.', each maybe followed by <c>[]</c>: keywords, function names and paths like <c>Lines[].Product</c>.</summary>
    Identifier,

    /// <summary>One quoted text: a value, or a field's one property name where the grammar names a field.</summary>
    String,

    /// <summary>Names joined by '.' of which at least one is quoted, or a quoted name followed by <c>[]</c>: <c>Address.'e-mail'</c>.</summary>
    Path,
    Number,
    Parameter,
    Operator,
    OpenParen,
    CloseParen,
    Comma,

    /// <summary>A JavaScript block in braces, kept as written (<c>select { … }</c>, <c>update { … }</c>, a declared function's body).</summary>
    Script,
    End,
}
