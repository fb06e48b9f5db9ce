namespace Folio.Indexing.Definitions;

/// <summary>
/// One field of an index definition: where its values come from and how they are indexed; <paramref name="Analyzer"/>
/// names the analyzer of a text field (<see cref="Analysis.NamedAnalyzers"/>, canonically spelled), null for the default.
/// </summary>
public sealed record IndexFieldDefinition(FieldPath Path, IndexFieldType Type = IndexFieldType.String, bool Search = false, bool CaseSensitive = false, string? Analyzer = null);
