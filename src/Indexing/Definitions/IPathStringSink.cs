namespace Folio.Indexing.Definitions;

/// <summary>Receives the string values <see cref="FieldPath.CollectStrings"/> finds in a document.</summary>
public interface IPathStringSink
{
    /// <summary>Takes one string found at the path.</summary>
    /// <param name="value">The string, unescaped.</param>
    void Add(string value);
}
