namespace Folio.Indexing.Collectors;

/// <summary>One entry of a result page.</summary>
public readonly record struct SearchHit(long EntryId, string Key, float Score);
