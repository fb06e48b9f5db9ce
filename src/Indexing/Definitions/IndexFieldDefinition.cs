namespace Folio.Indexing.Definitions;

/// <summary>One field of an index definition: where its values come from and how they are indexed.</summary>
public sealed record IndexFieldDefinition(FieldPath Path, IndexFieldType Type = IndexFieldType.String, bool Search = false, bool CaseSensitive = false);
