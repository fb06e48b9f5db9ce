namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// The names of the Lucene fields an entry becomes beside its own fields (which keep their names). They start with
/// a control character no field name of a definition holds, so they never collide with one.
/// </summary>
internal static class LuceneFields
{
    /// <summary>The entry's key: an indexed term (updates and deletes find the entry by it) and a binary doc value (hits read it).</summary>
    public const string Key = "\u0001key";

    /// <summary>A term per field the entry has (null or not): its name.</summary>
    public const string Exists = "\u0001exists";

    /// <summary>A term per field whose value is an explicit null: its name.</summary>
    public const string Null = "\u0001null";

    /// <summary>The commit user data key of the etag the committed batch processed up to.</summary>
    public const string ProcessedEtag = "folio.processed-etag";

    /// <summary>The binary doc value holding a field's values as a doc-values block encodes them (<see cref="Collectors.DocValuesBlock"/>).</summary>
    public static string Values(string field) => "\u0001v:" + field;

    /// <summary>
    /// A case-folding exact field's spellings: per entry and distinct value spelled otherwise than its normalized form,
    /// the term <c>normalized \0 spelling</c> (<see cref="Collectors.IDocValues.Spelling(ReadOnlySpan{byte})"/> counts them).
    /// </summary>
    public static string Spellings(string field) => "\u0001s:" + field;

    /// <summary>The separator between the normalized value and its spelling in a <see cref="Spellings"/> term.</summary>
    public const char SpellingSeparator = '\0';
}
