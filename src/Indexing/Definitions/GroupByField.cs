namespace Folio.Indexing.Definitions;

/// <summary>A field a map/reduce index groups by: the name it has in the results, and where its value is read.</summary>
/// <param name="Name">The field's name in the result rows.</param>
/// <param name="Path">The path of the value in a document; a path through <c>[]</c> makes a map entry per array item.</param>
/// <param name="WholeArray">
/// The group is the path's values together (RQL <c>group by array(Lines[].Product)</c>): one entry a document, keyed by the
/// array of them, where a path through an array otherwise makes an entry per item.
/// </param>
public sealed record GroupByField(string Name, FieldPath Path, bool WholeArray = false);
