namespace Folio.Indexing.Definitions;

/// <summary>
/// One step of a <see cref="FieldPath"/>: a property name, and whether <c>[]</c> was written after it.
/// Arrays are walked wherever a path meets them, so the marker only changes what a projection of the
/// last step returns (the array's items rather than the array) and how the path is written back.
/// </summary>
/// <param name="Name">The property name, unquoted and unescaped.</param>
/// <param name="MarksArray">Whether <c>[]</c> follows the name.</param>
public readonly record struct PathSegment(string Name, bool MarksArray = false);
