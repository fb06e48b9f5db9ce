using System.Text;
using Folio.Indexing.Analysis;

namespace Folio.Indexing.Search;

// Terms: a query's values turned into the terms and bounds the field was indexed with.
public sealed partial class IndexSearcher
{
    /// <summary>The term an equality on <paramref name="field"/> looks for, or null when the value cannot be one of its terms.</summary>
    internal byte[]? EqualityTerm(string field, FieldValue value)
    {
        var options = _index.Schema.Get(field);
        try
        {
            switch (options.Kind)
            {
                case FieldKind.Long:
                    return value.Type switch
                    {
                        FieldValueType.Long => TermEncoding.Long(value.Long),
                        FieldValueType.Double when value.Double == Math.Floor(value.Double) && !double.IsInfinity(value.Double) => TermEncoding.Long((long)value.Double),
                        FieldValueType.String when long.TryParse(value.Text, System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var parsed) => TermEncoding.Long(parsed),
                        _ => null,
                    };
                case FieldKind.Double:
                    return value.Type switch
                    {
                        FieldValueType.Long => TermEncoding.Double(value.Long),
                        FieldValueType.Double when !double.IsNaN(value.Double) => TermEncoding.Double(value.Double),
                        FieldValueType.String when double.TryParse(value.Text, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var parsed) && !double.IsNaN(parsed) => TermEncoding.Double(parsed),
                        _ => null,
                    };
                case FieldKind.Stored:
                    return null;
                default:
                    var terms = AnalyzeDistinct(field, value.ToString());
                    return terms.Count == 1 ? terms[0] : null;
            }
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    /// <summary>Text normalized the way a prefix or wildcard on <paramref name="field"/> compares: case folded unless the field is case-sensitive, not stemmed; whole, never shortened.</summary>
    internal byte[] NormalizedText(string field, string text)
    {
        var options = _index.Schema.Get(field);
        if (options.Kind == FieldKind.FullText)
            return Encoding.UTF8.GetBytes(AsciiFolding.Fold(text.ToLowerInvariant()));
        return Encoding.UTF8.GetBytes(options.CaseSensitive ? text : text.ToLowerInvariant());
    }

    /// <summary>
    /// Like <see cref="EqualityTerm"/>, but a text value's whole bytes even past
    /// <see cref="TermEncoding.MaxTermBytes"/> (what range bounds compare with).
    /// </summary>
    internal byte[]? WholeTerm(string field, FieldValue value)
    {
        var options = _index.Schema.Get(field);
        if (options.Kind is not (FieldKind.Exact or FieldKind.FullText))
            return EqualityTerm(field, value);
        byte[]? whole = null;
        foreach (var token in options.EffectiveAnalyzer.AnalyzeToList(value.ToString()))
        {
            var bytes = Encoding.UTF8.GetBytes(token.Term);
            if (whole is not null && !whole.AsSpan().SequenceEqual(bytes))
                return null;
            whole = bytes;
        }
        return whole;
    }

    internal List<byte[]> AnalyzeDistinct(string field, string text)
    {
        var seen = new HashSet<byte[]>(ByteArrayComparer.Instance);
        var terms = new List<byte[]>();
        foreach (var token in _index.Schema.Get(field).EffectiveAnalyzer.AnalyzeToList(text))
        {
            var term = TermEncoding.Text(token.Term);
            if (seen.Add(term))
                terms.Add(term);
        }
        return terms;
    }

    internal List<(byte[] Term, int Position)> AnalyzeWithPositions(string field, string text)
    {
        var tokens = new List<(byte[], int)>();
        foreach (var token in _index.Schema.Get(field).EffectiveAnalyzer.AnalyzeToList(text))
            tokens.Add((TermEncoding.Text(token.Term), token.Position));
        return tokens;
    }
}
