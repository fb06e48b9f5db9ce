namespace Folio.Indexing.Search;

/// <summary>The fields of an index by name (names compare ordinally).</summary>
public sealed class IndexSchema
{
    private readonly Dictionary<string, FieldOptions> _fields = new(StringComparer.Ordinal);

    /// <summary>Declares a field.</summary>
    public IndexSchema Add(string name, FieldOptions options)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        if (name.Length > 200)
            throw new ArgumentException("A field name may have at most 200 characters.", nameof(name));
        _fields.Add(name, options);
        return this;
    }

    /// <summary>Declares a field of <paramref name="kind"/>.</summary>
    public IndexSchema Add(string name, FieldKind kind) => Add(name, new FieldOptions(kind));

    /// <summary>The declared fields.</summary>
    public IReadOnlyDictionary<string, FieldOptions> Fields => _fields;

    /// <summary>The options of a declared field; throws naming the field otherwise.</summary>
    public FieldOptions Get(string name) =>
        _fields.TryGetValue(name, out var options) ? options : throw new ArgumentException($"The index has no field '{name}'.", nameof(name));
}
