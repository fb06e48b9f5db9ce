namespace Folio.Indexing.Rql;

/// <summary>A token of a query: its kind, its text (unquoted for strings) and where it starts.</summary>
internal readonly record struct RqlToken(RqlTokenKind Kind, string Text, int Position)
{
    public bool IsKeyword(string keyword) => Kind == RqlTokenKind.Identifier && string.Equals(Text, keyword, StringComparison.OrdinalIgnoreCase);

    public string Describe() => Kind switch
    {
        RqlTokenKind.End => "the end of the query",
        RqlTokenKind.String => $"the string '{Text}'",
        _ => $"'{Text}'",
    };
}

/// <summary>The kinds of query tokens.</summary>
internal enum RqlTokenKind
{
    Identifier,
    String,
    Number,
    Parameter,
    Operator,
    OpenParen,
    CloseParen,
    Comma,
    End,
}
