namespace Folio.Indexing.Search;

/// <summary>
/// What to index for one key (a document id, say): field values by field name. A field given several
/// values is multi-valued (an array); a field given <see cref="FieldValue.Null"/> is null; a field only
/// marked present (<see cref="AddPresent"/>) exists without a value to match; a field not given at all
/// is missing.
/// </summary>
public sealed class IndexEntry(string key)
{
    private readonly List<(string Field, FieldValue Value)> _values = [];
    private List<string>? _present;

    /// <summary>The key the entry is indexed, updated and deleted by.</summary>
    public string Key { get; } = key;

    /// <summary>The values, in the order they were added.</summary>
    public IReadOnlyList<(string Field, FieldValue Value)> Values => _values;

    /// <summary>The fields marked present, in the order they were marked.</summary>
    public IReadOnlyList<string> PresentFields => (IReadOnlyList<string>?)_present ?? [];

    /// <summary>Adds a value of <paramref name="field"/>.</summary>
    public IndexEntry Add(string field, FieldValue value)
    {
        _values.Add((field, value));
        return this;
    }

    /// <summary>Adds a string value.</summary>
    public IndexEntry Add(string field, string value) => Add(field, FieldValue.From(value));

    /// <summary>Adds an integer value.</summary>
    public IndexEntry Add(string field, long value) => Add(field, FieldValue.From(value));

    /// <summary>Adds a floating-point value.</summary>
    public IndexEntry Add(string field, double value) => Add(field, FieldValue.From(value));

    /// <summary>Adds an explicit null.</summary>
    public IndexEntry AddNull(string field) => Add(field, FieldValue.Null);

    /// <summary>
    /// Marks <paramref name="field"/> as present without a value (a document's object or empty array):
    /// exists queries find it, nothing else does.
    /// </summary>
    public IndexEntry AddPresent(string field)
    {
        (_present ??= []).Add(field);
        return this;
    }
}
