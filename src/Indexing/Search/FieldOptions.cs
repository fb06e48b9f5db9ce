using Folio.Indexing.Analysis;

namespace Folio.Indexing.Search;

/// <summary>A field of an index: its kind, and for text fields how values become terms.</summary>
public sealed record FieldOptions(FieldKind Kind, bool CaseSensitive = false, Analyzer? Analyzer = null)
{
    /// <summary>The analyzer that turns a value into terms (for exact fields, into one term).</summary>
    public Analyzer EffectiveAnalyzer => Analyzer ?? Kind switch
    {
        FieldKind.FullText => StandardEnglishAnalyzer.Instance,
        _ => CaseSensitive ? ExactAnalyzer.CaseSensitive : ExactAnalyzer.CaseInsensitive,
    };

    /// <summary>Whether a field of this kind has terms to search.</summary>
    public bool IsSearchable => Kind != FieldKind.Stored;

    /// <summary>Whether the field is numeric.</summary>
    public bool IsNumeric => Kind is FieldKind.Long or FieldKind.Double;

    /// <summary>An exact value as its doc value keeps it (whole, unlike a term): lower-cased unless case-sensitive.</summary>
    internal string NormalizeExact(string text) => CaseSensitive ? text : text.ToLowerInvariant();
}
