namespace Folio.Indexing.Rql;

public sealed partial record RqlQuery
{
    /// <summary>The terms to suggest (<c>select suggest(…), …</c>); a query with them answers suggestions, not documents.</summary>
    public IReadOnlyList<RqlSuggestion> Suggestions { get; init; } = [];
}

/// <summary>
/// <c>suggest(field, word [, $options]) [as name]</c>: the field's terms most like the word (a literal or a
/// <c>$parameter</c>, which may hold an array of words), with the options of a <c>$parameter</c> object.
/// </summary>
public sealed record RqlSuggestion(RqlField Field, RqlValue Words, RqlValue? Options, string? Alias)
{
    /// <summary>The name the answer gives the suggestions: the alias, or the field's name.</summary>
    public string Name => Alias ?? Field.Name;
}
