namespace Folio.Indexing.Definitions;

/// <summary>A field a map/reduce index groups by: the name it has in the results, and where its value is read.</summary>
/// <param name="Name">The field's name in the result rows.</param>
/// <param name="Path">The path of the value in a document; a path through <c>[]</c> makes a map entry per array item.</param>
public sealed record GroupByField(string Name, FieldPath Path);
