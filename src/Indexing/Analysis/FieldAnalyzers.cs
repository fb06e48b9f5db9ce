using System.Collections.Frozen;

namespace Folio.Indexing.Analysis;

/// <summary>
/// Chooses the analyzer for each field of an index: named fields get their own analyzer, every
/// other field the default. Field names compare ordinally, as JSON property names do.
/// </summary>
public sealed class FieldAnalyzers
{
    private readonly FrozenDictionary<string, Analyzer> _byField;
    private readonly FrozenDictionary<string, Analyzer>.AlternateLookup<ReadOnlySpan<char>> _bySpan;

    /// <summary>Creates the mapping.</summary>
    /// <param name="defaultAnalyzer">The analyzer of fields not listed.</param>
    /// <param name="fields">Per-field analyzers, by field name.</param>
    public FieldAnalyzers(Analyzer defaultAnalyzer, IEnumerable<KeyValuePair<string, Analyzer>>? fields = null)
    {
        ArgumentNullException.ThrowIfNull(defaultAnalyzer);
        Default = defaultAnalyzer;
        _byField = (fields ?? []).ToFrozenDictionary(StringComparer.Ordinal);
        _bySpan = _byField.GetAlternateLookup<ReadOnlySpan<char>>();
    }

    /// <summary>The analyzer of fields without their own.</summary>
    public Analyzer Default { get; }

    /// <summary>The fields that have their own analyzer.</summary>
    public IReadOnlyDictionary<string, Analyzer> Fields => _byField;

    /// <summary>The analyzer for <paramref name="fieldName"/>.</summary>
    /// <param name="fieldName">The field name.</param>
    /// <returns>The field's analyzer, or <see cref="Default"/>.</returns>
    public Analyzer For(string fieldName)
    {
        ArgumentNullException.ThrowIfNull(fieldName);
        return _byField.TryGetValue(fieldName, out Analyzer? analyzer) ? analyzer : Default;
    }

    /// <summary>The analyzer for <paramref name="fieldName"/>, without allocating a string.</summary>
    /// <param name="fieldName">The field name.</param>
    /// <returns>The field's analyzer, or <see cref="Default"/>.</returns>
    public Analyzer For(ReadOnlySpan<char> fieldName) =>
        _bySpan.TryGetValue(fieldName, out Analyzer? analyzer) ? analyzer : Default;
}
